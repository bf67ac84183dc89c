package dev.sessionless.session.internal;

import dev.sessionless.core.TokenException;
import java.time.Instant;

/**
 * What an adapter does at the engine's events that have no container-neutral form: where it
 * publishes a rejection and the session's {@code auth_time} for other code of the request (the
 * servlet filter: request attributes; WebFlux: exchange attributes), and the attribute binding
 * callbacks of its session API (the servlet filter: {@code HttpSessionBindingListener}; WebFlux
 * has none, so it answers {@link #listens} {@code false}).
 *
 * <p>Called holding the engine's lock ({@link ExchangeSession}); none may block or call back
 * into the engine from another thread.
 */
public interface SessionHooks {
  /** The request's token was refused as a client's bad token, for {@code reason}. */
  void rejected(TokenException.Reason reason);

  /**
   * The session's {@code auth_time} as its next token will say, after any change: {@code null}
   * while it has none.
   */
  void authTimeChanged(Instant authTime);

  /** Whether values of {@code type} are told when they are bound to or unbound from a session. */
  boolean listens(Class<?> type);

  /** {@code value}, whose class {@link #listens}, was set as attribute {@code name} of {@code session}. */
  void bound(TokenSession session, String name, Object value);

  /**
   * {@code value}, whose class {@link #listens}, was removed or replaced as attribute {@code
   * name} of {@code session}, or the session ended.
   */
  void unbound(TokenSession session, String name, Object value);
}
