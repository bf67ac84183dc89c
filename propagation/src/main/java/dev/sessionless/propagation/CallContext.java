package dev.sessionless.propagation;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What a service knows about the call it is serving: the trace, and the session it serves,
 * either as the browser session (at the edge) or as the verified internal token it was called
 * with. Bound to the serving thread by {@link EdgeContextFilter} and {@link InternalTokenFilter}
 * (or by {@link #open()}), read by the outgoing helpers ({@link OutgoingTokens}) and by logging.
 *
 * <p><b>Logging</b> without a logging framework: {@link #current()} gives the trace id and
 * session id to any logger, and {@link #toString()} is {@code trace=<id> sid=<id>}, ready for a
 * {@code System.Logger} message:
 *
 * <pre>{@code
 * LOG.log(Level.INFO, "{0} order placed", CallContext.current().map(Object::toString).orElse("-"));
 * }</pre>
 *
 * <p>The session id is no credential (it cannot be used to act as the user), but it does link
 * log lines to a user: keep logs as private as the rest of the user's data.
 *
 * <p>Immutable; the binding is per thread (work handed to other threads needs its own {@link
 * #open()}).
 */
public final class CallContext {
  private static final ThreadLocal<CallContext> CURRENT = new ThreadLocal<>();

  private final TraceContext trace;
  private final InternalToken token;
  private final Supplier<Optional<EdgeSession>> session;

  private CallContext(TraceContext trace, InternalToken token, Supplier<Optional<EdgeSession>> session) {
    this.trace = trace;
    this.token = token;
    this.session = session;
  }

  /** The context of an internal service serving a verified token. */
  public static CallContext of(TraceContext trace, InternalToken token) {
    return new CallContext(Objects.requireNonNull(trace, "trace"), Objects.requireNonNull(token, "token"), null);
  }

  /** The context of an edge service serving a browser session (the session read each time it is asked for, so a login during the request counts). */
  public static CallContext ofSession(TraceContext trace, Supplier<Optional<EdgeSession>> session) {
    Objects.requireNonNull(trace, "trace");
    Objects.requireNonNull(session, "session");
    return new CallContext(trace, null, session);
  }

  /** The context bound to this thread, if any. */
  public static Optional<CallContext> current() {
    return Optional.ofNullable(CURRENT.get());
  }

  /**
   * Binds this context to the current thread until the returned scope is closed, which restores
   * the one bound before.
   */
  public Scope open() {
    CallContext previous = CURRENT.get();
    CURRENT.set(this);
    return new Scope(previous);
  }

  /** The trace of the call being served. */
  public TraceContext trace() {
    return trace;
  }

  /** The trace id, for logs. */
  public String traceId() {
    return trace.traceId();
  }

  /** The verified internal token this service was called with, in an internal service. */
  public Optional<InternalToken> token() {
    return Optional.ofNullable(token);
  }

  /** The browser session, at the edge, if the request has one. */
  public Optional<EdgeSession> session() {
    return session == null ? Optional.empty() : session.get();
  }

  /** The session id, for logs: the token's {@code sid}, or the browser session's id. */
  public Optional<String> sessionId() {
    return token != null ? Optional.of(token.sessionId()) : session().map(EdgeSession::sessionId);
  }

  /** {@code trace=<trace id> sid=<session id or ->}, for log lines. */
  @Override
  public String toString() {
    return "trace=" + trace.traceId() + " sid=" + sessionId().orElse("-");
  }

  /** A binding of a context to a thread; closing it restores the previous one. */
  public static final class Scope implements AutoCloseable {
    private final CallContext previous;

    private Scope(CallContext previous) {
      this.previous = previous;
    }

    /** Restores the context bound before. */
    @Override
    public void close() {
      if (previous == null) {
        CURRENT.remove();
      } else {
        CURRENT.set(previous);
      }
    }
  }
}
