package dev.sessionless.servlet.it;

import java.text.MessageFormat;
import java.util.List;
import java.util.ResourceBundle;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The {@code System.LoggerFinder} of the filter's test JVM (registered in {@code
 * META-INF/services}): keeps every message of a {@code dev.sessionless} logger, at every level,
 * so tests can check what operators are told (and that no value or token is ever in it).
 * Warnings and errors are echoed to standard error; other System.Loggers are off.
 */
public final class RecordingLoggerFinder extends System.LoggerFinder {
  /** One message as it would be printed, with the class and message of each throwable in its chain. */
  public static final class Entry {
    public final String logger;
    public final System.Logger.Level level;
    public final String text;
    /** Whether a throwable came with the message (its stack trace would be printed). */
    public final boolean withThrowable;

    Entry(String logger, System.Logger.Level level, String text, boolean withThrowable) {
      this.logger = logger;
      this.level = level;
      this.text = text;
      this.withThrowable = withThrowable;
    }

    @Override
    public String toString() {
      return level + " " + logger + ": " + text;
    }
  }

  private static final List<Entry> ENTRIES = new CopyOnWriteArrayList<>();
  /** Called with every entry as it is logged, on the logging thread: a test's stand-in for a slow log handler. */
  public static volatile java.util.function.Consumer<Entry> onLog = e -> { };

  /** Whether this finder is in force (the JVM picked it up from the service file). */
  public static boolean installed() {
    return System.LoggerFinder.getLoggerFinder() instanceof RecordingLoggerFinder;
  }

  /** The current end of the record; pass it to {@link #since} to see only what came later. */
  public static int mark() {
    return ENTRIES.size();
  }

  /** The entries after {@code mark} that match {@code filter}. */
  public static List<Entry> since(int mark, Predicate<Entry> filter) {
    return ENTRIES.subList(mark, ENTRIES.size()).stream().filter(filter).collect(Collectors.toList());
  }

  @Override
  public System.Logger getLogger(String name, Module module) {
    return new Recorder(name);
  }

  private static final class Recorder implements System.Logger {
    private final String name;
    private final boolean ours;

    Recorder(String name) {
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
        keep(level, msg == null ? "" : msg, thrown);
      }
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String format, Object... params) {
      if (isLoggable(level)) {
        keep(level, params == null || params.length == 0 ? format : MessageFormat.format(format, params), null);
      }
    }

    private void keep(Level level, String text, Throwable thrown) {
      StringBuilder sb = new StringBuilder(text);
      for (Throwable t = thrown; t != null; t = t.getCause()) {
        sb.append(" | ").append(t);
      }
      Entry e = new Entry(name, level, sb.toString(), thrown != null);
      ENTRIES.add(e);
      onLog.accept(e);
      if (level.getSeverity() >= Level.WARNING.getSeverity()) {
        System.err.println(e);
      }
    }
  }
}
