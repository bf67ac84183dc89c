package dev.sessionless.keyring.live;

import java.text.MessageFormat;
import java.util.List;
import java.util.ResourceBundle;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * The test JVM's {@code System.LoggerFinder} (registered in {@code META-INF/services}): every
 * log line of every System.Logger, formatted as a handler would, kept for inspection.
 */
public final class RecordingLoggerFinder extends System.LoggerFinder {
  /** Every formatted line, with its level and logger name. */
  public static final List<String> LINES = new CopyOnWriteArrayList<>();

  @Override
  public System.Logger getLogger(String name, Module module) {
    return new System.Logger() {
      @Override
      public String getName() {
        return name;
      }

      @Override
      public boolean isLoggable(Level level) {
        return true;
      }

      @Override
      public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
        LINES.add(level + " " + name + " " + msg + (thrown == null ? "" : " " + thrown));
      }

      @Override
      public void log(Level level, ResourceBundle bundle, String format, Object... params) {
        String text = params == null || params.length == 0 ? format : MessageFormat.format(format, params);
        LINES.add(level + " " + name + " " + text);
      }

      @Override
      public void log(Level level, Supplier<String> supplier) {
        LINES.add(level + " " + name + " " + supplier.get());
      }
    };
  }
}
