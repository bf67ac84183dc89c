package dev.sessionless.keyring.live;

import java.text.MessageFormat;
import java.util.List;
import java.util.ResourceBundle;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Replaces the JDK's {@code System.LoggerFinder} in the keyring's test JVM (registered in {@code
 * META-INF/services}) and records every message of a {@code dev.sessionless} logger, at every
 * level — DEBUG included, so even quiet messages are checked for secrets. Warnings and errors are
 * also printed to standard error. Other loggers (the JDK's own) are switched off.
 */
public final class RecordingLoggerFinder extends System.LoggerFinder {
  /** One formatted log message, with the messages of its throwable chain. */
  public static final class Entry {
    public final String logger;
    public final System.Logger.Level level;
    public final String text;

    Entry(String logger, System.Logger.Level level, String text) {
      this.logger = logger;
      this.level = level;
      this.text = text;
    }

    @Override
    public String toString() {
      return level + " " + logger + ": " + text;
    }
  }

  private static final List<Entry> ENTRIES = new CopyOnWriteArrayList<>();
  private static volatile Function<String, Throwable> failure = text -> null;

  /**
   * Makes the back end fail like a broken appender: a message for which {@code when} answers a
   * throwable (an unchecked exception or an error) is recorded, then that is thrown from {@code
   * log}. {@code text -> null} (the default) ends it.
   */
  public static void failWhen(Function<String, Throwable> when) {
    failure = when;
  }

  /** Whether this finder is the one in force (it is, when the service file is on the class path). */
  public static boolean installed() {
    return System.LoggerFinder.getLoggerFinder() instanceof RecordingLoggerFinder;
  }

  /** A position in the record, to look only at what came after it. */
  public static int mark() {
    return ENTRIES.size();
  }

  /** The entries since {@code mark} that match. */
  public static List<Entry> since(int mark, Predicate<Entry> filter) {
    return ENTRIES.subList(mark, ENTRIES.size()).stream().filter(filter).collect(Collectors.toList());
  }

  @Override
  public System.Logger getLogger(String name, Module module) {
    return new Recording(name);
  }

  private static final class Recording implements System.Logger {
    private final String name;
    private final boolean ours;

    Recording(String name) {
      this.name = name;
      this.ours = name.startsWith("dev.sessionless");
    }

    @Override
    public String getName() {
      return name;
    }

    @Override
    public boolean isLoggable(Level level) {
      return ours && level != Level.OFF;
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
      if (isLoggable(level)) {
        record(level, msg == null ? "" : msg, thrown);
      }
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String format, Object... params) {
      if (isLoggable(level)) {
        String text = params == null || params.length == 0 ? format : MessageFormat.format(format, params);
        record(level, text, null);
      }
    }

    private void record(Level level, String text, Throwable thrown) {
      StringBuilder sb = new StringBuilder(text);
      for (Throwable t = thrown; t != null; t = t.getCause()) {
        sb.append(" | ").append(t);
      }
      Entry e = new Entry(name, level, sb.toString());
      ENTRIES.add(e);
      if (level.getSeverity() >= Level.WARNING.getSeverity()) {
        System.err.println(e);
      }
      Throwable fail = failure.apply(e.text);
      if (fail instanceof RuntimeException) {
        throw (RuntimeException) fail;
      } else if (fail instanceof Error) {
        throw (Error) fail;
      }
    }
  }
}
