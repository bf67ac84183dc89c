package dev.sessionless.grpc;

import dev.sessionless.core.TokenException;
import dev.sessionless.grpc.internal.ContextListener;
import dev.sessionless.grpc.internal.MetadataKeys;
import dev.sessionless.propagation.CallContext;
import dev.sessionless.propagation.InternalToken;
import dev.sessionless.propagation.InternalTokenVerifier;
import dev.sessionless.propagation.TraceContext;
import dev.sessionless.propagation.internal.Admission;
import io.grpc.Context;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The receiving side of a gRPC service: every call must carry an internal token for this
 * service in its metadata ({@code authorization: Bearer <token>}, or the bare token in {@code
 * txn-token} when the verifier's profile is Transaction Tokens, unless another header is
 * configured: the rule of the servlet {@code InternalTokenFilter}), which {@link
 * InternalTokenVerifier} checks. The service code then finds the verified token and trace
 * through {@link GrpcCallContext} (gRPC's {@code Context}) and {@link CallContext#current()}.
 *
 * <pre>{@code
 * Server server = NettyServerBuilder.forPort(port)
 *     .addService(ServerInterceptors.intercept(ordersService,
 *         InternalTokenServerInterceptor.builder().verifier(verifier).build()))
 *     .build();
 * }</pre>
 *
 * <p><b>Answers.</b> A call without a token, or with one the verifier refuses, is closed with
 * {@link Status#UNAUTHENTICATED} whose description is a reason code only ({@code
 * MISSING_TOKEN}, or the {@link TokenException.Reason} such as {@code WRONG_AUDIENCE}; a call
 * carrying the token header twice is {@code MALFORMED}, neither value used); the
 * detail goes to DEBUG on this class's {@code System.Logger}, the token never. A failure on
 * this side is never the caller's: a key or revocation source past its bounds ({@code
 * KEY_SOURCE_UNAVAILABLE}, {@code REVOCATION_UNAVAILABLE}) is {@link Status#UNAVAILABLE}, logged
 * at ERROR; a fault ({@code INTERNAL}, or anything else thrown) is {@link Status#INTERNAL},
 * logged at ERROR, with its stack trace the first time its cause is seen. The incoming {@code
 * traceparent} is kept if valid, else a new trace starts.
 *
 * <p><b>A token in its leeway.</b> As the servlet filter: when the service code fails with a
 * {@code TokenException} {@code EXPIRED} (or an exception caused by one) because the caller's
 * token has less than the second left that a re-mint needs, the call is closed {@code
 * UNAUTHENTICATED} {@code EXPIRED}, not {@code UNKNOWN}: the caller mints a fresh token and
 * calls again.
 *
 * <p>Thread-safe.
 */
public final class InternalTokenServerInterceptor implements ServerInterceptor {
  /** The description of a call that carried no token. */
  public static final String MISSING_TOKEN = "MISSING_TOKEN";
  private static final System.Logger LOG = System.getLogger(InternalTokenServerInterceptor.class.getName());
  private static final Metadata.Key<String> TRACEPARENT = MetadataKeys.of(TraceContext.HEADER);
  /** The faults whose stack trace was logged (at most 256 causes are remembered). */
  private static final Set<String> FAULT_CAUSES = ConcurrentHashMap.newKeySet();

  private final InternalTokenVerifier verifier;
  private final Metadata.Key<String> header;
  /** Only for its lapsed-token rule: verification and refusals are gRPC's own, above. */
  private final Admission admission;

  private InternalTokenServerInterceptor(Builder b) {
    this.verifier = b.verifier;
    this.admission = new Admission(b.verifier, t -> true, LOG);
    this.header = MetadataKeys.of(b.header != null ? b.header : b.verifier.profile().header());
  }

  /** A builder; the verifier is required. */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
      ServerCallHandler<Q, R> next) {
    TraceContext trace = TraceContext.parse(headers.get(TRACEPARENT)).orElseGet(TraceContext::newTrace);
    Iterable<String> values = headers.getAll(header);
    if (values != null && values.iterator().hasNext() && moreThanOne(values)) {
      // Two tokens: which one a proxy or the peer library reads is not defined. Neither is used.
      LOG.log(System.Logger.Level.DEBUG, "trace={0}: more than one internal token in the call''s metadata", trace.traceId());
      return refuse(call, Status.UNAUTHENTICATED.withDescription(TokenException.Reason.MALFORMED.name()));
    }
    String token = verifier.profile().tokenOf(headers.get(header)); // Bearer, or a bare Txn-Token
    if (token == null) {
      LOG.log(System.Logger.Level.DEBUG, "trace={0}: no internal token in the call''s metadata", trace.traceId());
      return refuse(call, Status.UNAUTHENTICATED.withDescription(MISSING_TOKEN));
    }
    InternalToken verified;
    try {
      verified = verifier.verify(token);
    } catch (TokenException e) {
      return refuse(call, answer(e, trace));
    } catch (RuntimeException e) {
      fault(trace, "verifying an internal token failed on this side", e);
      return refuse(call, Status.INTERNAL.withDescription(TokenException.Reason.INTERNAL.name()));
    }
    CallContext callContext = CallContext.of(trace, verified);
    Context context = Context.current().withValues(GrpcCallContext.KEY, callContext, GrpcCallContext.TOKEN_KEY, verified);
    Function<RuntimeException, Boolean> lapsed = e -> closeIfLapsed(call, e, verified, trace);
    ServerCall.Listener<Q> listener = ContextListener.within(context, callContext, lapsed,
        () -> next.startCall(call, headers));
    return listener == null ? new ServerCall.Listener<Q>() {} : new ContextListener<>(listener, context, callContext, lapsed);
  }

  /** The status for a verification that threw {@code e}, logged as its kind asks. */
  private static Status answer(TokenException e, TraceContext trace) {
    TokenException.Reason reason = e.reason();
    if (reason.isRejection()) {
      LOG.log(System.Logger.Level.DEBUG, "trace={0}: internal token refused: {1} ({2})", trace.traceId(), reason,
          e.getMessage());
      return Status.UNAUTHENTICATED.withDescription(reason.name());
    }
    if (reason == TokenException.Reason.KEY_SOURCE_UNAVAILABLE || reason == TokenException.Reason.REVOCATION_UNAVAILABLE) {
      LOG.log(System.Logger.Level.ERROR, "trace={0}: internal token cannot be verified now: {1} ({2})", trace.traceId(),
          reason, e.getMessage());
      return Status.UNAVAILABLE.withDescription(reason.name());
    }
    // INTERNAL and the rest: a fault here, never the caller's.
    fault(trace, "internal token could not be verified on this side (" + reason + ")", e);
    return Status.INTERNAL.withDescription(reason.name());
  }

  /**
   * Logs a fault at ERROR: with its stack trace the first time its cause (the innermost
   * exception's class and the frame that threw it) is seen, as one line after that, so that a
   * bug hit by every call shows its stack once, not once a call.
   */
  private static void fault(TraceContext trace, String what, Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    StackTraceElement[] at = root.getStackTrace();
    String cause = root.getClass().getName() + (at.length == 0 ? "" : " at " + at[0]);
    if (FAULT_CAUSES.size() < 256 && FAULT_CAUSES.add(cause)) {
      LOG.log(System.Logger.Level.ERROR, "trace=" + trace.traceId() + ": " + what + "; first time for " + cause, e);
    } else {
      LOG.log(System.Logger.Level.ERROR, "trace={0}: {1}; seen before: {2}", trace.traceId(), what, cause);
    }
  }

  /**
   * Closes the call as the caller's lapsed token if {@code e} is that (the receiving filters'
   * rule, {@link Admission#lapsed}); false leaves it to gRPC.
   */
  private boolean closeIfLapsed(ServerCall<?, ?> call, RuntimeException e, InternalToken verified, TraceContext trace) {
    if (admission.lapsed(e, verified, trace) == null) {
      return false;
    }
    try {
      call.close(Status.UNAUTHENTICATED.withDescription(TokenException.Reason.EXPIRED.name()), new Metadata());
    } catch (IllegalStateException alreadyClosed) {
      return false;   // the service answered before it failed: its failure stays its own
    }
    return true;
  }

  private static <Q> ServerCall.Listener<Q> refuse(ServerCall<Q, ?> call, Status status) {
    call.close(status, new Metadata());
    return new ServerCall.Listener<Q>() {};
  }

  private static boolean moreThanOne(Iterable<String> values) {
    var it = values.iterator();
    it.next();
    return it.hasNext();
  }

  /** The header and the verifier. */
  @Override
  public String toString() {
    return "InternalTokenServerInterceptor[header=" + header.name() + ", " + verifier + "]";
  }

  /** Builds an {@link InternalTokenServerInterceptor}, checking it at {@link #build()}. Not thread-safe. */
  public static final class Builder {
    private InternalTokenVerifier verifier;
    private String header;

    private Builder() {}

    /** Verifies the tokens: this service's audience and the issuers it accepts. Required. */
    public Builder verifier(InternalTokenVerifier verifier) {
      this.verifier = Objects.requireNonNull(verifier, "verifier");
      return this;
    }

    /**
     * The metadata key carrying the token, as the callers' {@code OutgoingTokens.header} names it
     * (any case); if not set, the verifier's profile's: {@code authorization} with {@code Bearer
     * <token>} ({@code TokenProfile.INTERNAL}) or {@code txn-token} with the bare token ({@code
     * TokenProfile.TXN_TOKEN}).
     *
     * @throws IllegalArgumentException for a binary ({@code -bin}) or pseudo-header key
     */
    public Builder header(String name) {
      MetadataKeys.of(Objects.requireNonNull(name, "name"));
      this.header = name;
      return this;
    }

    /**
     * The interceptor.
     *
     * @throws IllegalStateException if no verifier was given
     */
    public InternalTokenServerInterceptor build() {
      if (verifier == null) {
        throw new IllegalStateException("verifier is required: InternalTokenVerifier.builder()...build()");
      }
      return new InternalTokenServerInterceptor(this);
    }
  }
}
