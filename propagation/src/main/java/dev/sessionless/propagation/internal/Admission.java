package dev.sessionless.propagation.internal;

import dev.sessionless.core.TokenException;
import dev.sessionless.propagation.InternalToken;
import dev.sessionless.propagation.InternalTokenVerifier;
import dev.sessionless.propagation.TraceContext;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * What the receiving filters ({@code InternalTokenFilter} for servlets, {@code
 * InternalTokenWebFilter} for WebFlux) decide alike, once: the token of the header, the
 * verification, the check after it, which failures are the caller's ({@code 401}) and which are
 * this side's ({@code 503}, logged at ERROR), and when an application's failure is really the
 * caller's lapsed token. What is left in each filter is how its stack reads a header and writes
 * an answer. The gRPC server interceptor applies {@link #lapsed} too (the one rule for both).
 *
 * <p>Exported only to {@code dev.sessionless.grpc}. Immutable and thread-safe.
 */
public final class Admission {
  /** The challenge to a request without a token (RFC 6750 section 3: no error code). */
  public static final String MISSING = "Bearer";
  /** The challenge to a refused token. */
  public static final String INVALID = "Bearer error=\"invalid_token\"";
  /** The challenge to a token that lapsed before it could be re-minted. */
  public static final String EXPIRED = "Bearer error=\"invalid_token\", error_description=\"The access token expired\"";

  /** The one line of every {@code 401} the receiving filters give. */
  public static final String REFUSED_LINE = "an internal token for this service is required";

  private final InternalTokenVerifier verifier;
  private final Predicate<? super InternalToken> check;
  private final System.Logger log;

  /**
   * The admission of {@code verifier}'s tokens that pass {@code check}, logging on {@code log}
   * (the filter's own logger, so that its name is the one operators configure).
   */
  public Admission(InternalTokenVerifier verifier, Predicate<? super InternalToken> check, System.Logger log) {
    this.verifier = Objects.requireNonNull(verifier, "verifier");
    this.check = Objects.requireNonNull(check, "check");
    this.log = Objects.requireNonNull(log, "log");
  }

  /** The verifier. */
  public InternalTokenVerifier verifier() {
    return verifier;
  }

  /** The incoming trace of a {@code traceparent} value if it is valid, else a new one. */
  public static TraceContext trace(String traceparent) {
    return TraceContext.parse(traceparent).orElseGet(TraceContext::newTrace);
  }

  /** The decision on one request: a verified token, or the answer to give instead. */
  public static final class Decision {
    private final InternalToken token;
    private final Answer answer;

    private Decision(InternalToken token, Answer answer) {
      this.token = token;
      this.answer = answer;
    }

    /** Whether the request goes on to the application with {@link #token()}. */
    public boolean admitted() {
      return token != null;
    }

    /** The verified token; null when refused. */
    public InternalToken token() {
      return token;
    }

    /** The answer instead of the application; null when admitted. */
    public Answer answer() {
      return answer;
    }
  }

  /**
   * Decides on a request whose token header has {@code headerValue} (null if absent; {@code
   * Bearer <token>} or, in the Transaction Token profile, the bare token), logging
   * the reason of a refusal at DEBUG and a failure on this side at ERROR.
   */
  public Decision decide(String headerValue, TraceContext trace) {
    String token = verifier.profile().tokenOf(headerValue);
    if (token == null) {
      log.log(System.Logger.Level.DEBUG, "trace={0}: no internal token presented", trace.traceId());
      return refused(MISSING);
    }
    InternalToken verified;
    try {
      verified = verifier.verify(token);
      if (!check.test(verified)) {
        log.log(System.Logger.Level.DEBUG, "trace={0}: internal token refused by the filter''s check", trace.traceId());
        return refused(INVALID);
      }
    } catch (TokenException e) {
      if (e.reason().isRejection()) {
        log.log(System.Logger.Level.DEBUG, "trace={0}: internal token refused: {1} ({2})",
            trace.traceId(), e.reason(), e.getMessage());
        return refused(INVALID);
      }
      return unavailable(trace, "internal token could not be verified on this side (" + e.reason() + ")", e);
    } catch (RuntimeException e) {
      // The check (or a bug) failed on this side: not the caller's fault, and no 500 with details.
      return unavailable(trace, "the check after verification failed", e);
    }
    return new Decision(verified, null);
  }

  /**
   * The answer for a failure {@code e} of the application serving {@code verified}, when it is
   * the caller's token lapsing: {@code e} is (or wraps) a {@code TokenException} with reason
   * {@code EXPIRED} thrown while the caller's token, by the verifier's clock, has less than the
   * one second left that a re-mint needs (it was accepted within the clock leeway, or lapsed
   * while the request was served). Null for every other failure, which stays the application's.
   */
  public Answer lapsed(Throwable e, InternalToken verified, TraceContext trace) {
    Throwable t = e;
    for (int depth = 0; t != null && depth < 32; depth++, t = t.getCause()) {
      if (t instanceof TokenException && ((TokenException) t).reason() == TokenException.Reason.EXPIRED) {
        if (!verifier.tooLateToRemint(verified)) {
          return null;
        }
        log.log(System.Logger.Level.DEBUG, "trace={0}: the caller''s internal token expired before it could be "
            + "re-minted for the next call: refused as expired", trace.traceId());
        return Answer.unauthorized(EXPIRED, REFUSED_LINE);
      }
    }
    return null;
  }

  /** The token of an {@code Authorization}-style value: the scheme {@code Bearer} (any case) and a token68. */
  public static String bearer(String value) {
    if (value == null || value.length() < 8 || !value.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return null;
    }
    String t = value.substring(7).trim();
    return t.isEmpty() || t.indexOf(' ') >= 0 ? null : t;
  }

  private static Decision refused(String challenge) {
    return new Decision(null, Answer.unauthorized(challenge, REFUSED_LINE));
  }

  private Decision unavailable(TraceContext trace, String what, Exception e) {
    log.log(System.Logger.Level.ERROR, "trace=" + trace.traceId() + ": " + what, e);
    return new Decision(null, Answer.unavailable("the token cannot be verified now"));
  }

  /** The verifier. */
  @Override
  public String toString() {
    return "Admission[" + verifier + "]";
  }
}
