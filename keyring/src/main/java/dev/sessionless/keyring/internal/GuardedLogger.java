package dev.sessionless.keyring.internal;

import java.util.ResourceBundle;
import java.util.function.Consumer;

/**
 * The keyring's logger, guarded: a logging back end that throws (a broken appender, a bug in a
 * handler) must not stop a refresh half-way or end the refresh chain. What the back end throws
 * is swallowed and reported to {@code onFailure} (which counts it for the status view).
 */
public final class GuardedLogger implements System.Logger {
  private final System.Logger delegate;
  private final Consumer<Throwable> onFailure;

  /** Guards {@code delegate}; {@code onFailure} hears of every throwable it threw. */
  public GuardedLogger(System.Logger delegate, Consumer<Throwable> onFailure) {
    this.delegate = delegate;
    this.onFailure = onFailure;
  }

  @Override
  public String getName() {
    return delegate.getName();
  }

  @Override
  public boolean isLoggable(Level level) {
    try {
      return delegate.isLoggable(level);
    } catch (RuntimeException | Error e) {
      onFailure.accept(e);
      return false;
    }
  }

  @Override
  public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
    try {
      delegate.log(level, bundle, msg, thrown);
    } catch (RuntimeException | Error e) {
      onFailure.accept(e);
    }
  }

  @Override
  public void log(Level level, ResourceBundle bundle, String format, Object... params) {
    try {
      delegate.log(level, bundle, format, params);
    } catch (RuntimeException | Error e) {
      onFailure.accept(e);
    }
  }
}
