package dev.sessionless.core.internal;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.SessionlessListener;
import dev.sessionless.core.TokenException;
import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Wraps a user's listener so that its exceptions never reach a request or a refresh: each is
 * caught, and the first one logged (type only: a message may quote anything). {@link #wrap}
 * leaves {@link SessionlessListener#NONE} as it is, so the default costs an empty call the JIT
 * removes. Each method repeats the same try/catch rather than passing the call as a lambda: a
 * capturing lambda would allocate on every request's event.
 */
public final class SafeListener implements SessionlessListener {
  private static final System.Logger LOG = System.getLogger(SessionlessListener.class.getName());
  private final SessionlessListener delegate;
  private final AtomicBoolean logged = new AtomicBoolean();

  private SafeListener(SessionlessListener delegate) {
    this.delegate = delegate;
  }

  /** {@code listener} guarded, or {@code NONE} itself; never wraps twice. */
  public static SessionlessListener wrap(SessionlessListener listener) {
    if (listener == NONE || listener instanceof SafeListener) {
      return listener;
    }
    return new SafeListener(listener);
  }

  private void failed(String event, Throwable e) {
    if (logged.compareAndSet(false, true)) {
      try {
        LOG.log(Level.ERROR, "the listener {0} threw {1} on {2}; it is ignored (the request or refresh goes on), "
            + "and further failures of this listener are not logged: fix the listener", delegate.getClass().getName(),
            e.getClass().getName(), event);
      } catch (RuntimeException ignored) {
        // A logging back end that throws must not break the request either.
      }
    }
  }

  @Override
  public void tokenVerified(String kid, Algorithm algorithm, boolean cacheHit) {
    try {
      delegate.tokenVerified(kid, algorithm, cacheHit);
    } catch (RuntimeException | LinkageError e) {
      failed("tokenVerified", e);
    }
  }

  @Override
  public void tokenRejected(TokenException.Reason reason) {
    try {
      delegate.tokenRejected(reason);
    } catch (RuntimeException | LinkageError e) {
      failed("tokenRejected", e);
    }
  }

  @Override
  public void tokenEncoded(String kid, Algorithm algorithm, int length) {
    try {
      delegate.tokenEncoded(kid, algorithm, length);
    } catch (RuntimeException | LinkageError e) {
      failed("tokenEncoded", e);
    }
  }

  @Override
  public void keySetChanged(KeySet previous, KeySet current) {
    try {
      delegate.keySetChanged(previous, current);
    } catch (RuntimeException | LinkageError e) {
      failed("keySetChanged", e);
    }
  }

  @Override
  public void keySourceChecked(String source, String outcome, Instant lastSuccess) {
    try {
      delegate.keySourceChecked(source, outcome, lastSuccess);
    } catch (RuntimeException | LinkageError e) {
      failed("keySourceChecked", e);
    }
  }

  @Override
  public void cookieWritten(int bytes, int chunks) {
    try {
      delegate.cookieWritten(bytes, chunks);
    } catch (RuntimeException | LinkageError e) {
      failed("cookieWritten", e);
    }
  }

  @Override
  public void sessionRejected(TokenException.Reason reason) {
    try {
      delegate.sessionRejected(reason);
    } catch (RuntimeException | LinkageError e) {
      failed("sessionRejected", e);
    }
  }

  @Override
  public void sessionChangeDropped(String what) {
    try {
      delegate.sessionChangeDropped(what);
    } catch (RuntimeException | LinkageError e) {
      failed("sessionChangeDropped", e);
    }
  }

  @Override
  public String toString() {
    return "SafeListener[" + delegate.getClass().getName() + "]";
  }
}
