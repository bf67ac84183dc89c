package dev.sessionless.grpc;

import dev.sessionless.grpc.internal.MetadataKeys;
import dev.sessionless.propagation.CallContext;
import dev.sessionless.propagation.OutgoingTokens;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The sending side for gRPC: every call made through a channel with this interceptor carries
 * the headers {@link OutgoingTokens#headersFor(CallContext, String)} gives for the callee,
 * as metadata: the internal token ({@code authorization: Bearer <token>}, or the header {@code
 * OutgoingTokens} is built with), minted from the browser session at the edge or re-minted,
 * narrower, from the token this service was called with, and a child {@code traceparent}.
 *
 * <pre>{@code
 * ClientInterceptor tokens = InternalTokenClientInterceptor.builder()
 *     .outgoing(outgoing).audience("billing").build();       // a channel to one service
 * Channel billing = ClientInterceptors.intercept(billingChannel, tokens);
 * }</pre>
 *
 * <p><b>Which audience.</b> Either one for every call ({@link Builder#audience(String)}), for a
 * channel to one service, or one per target authority ({@link Builder#audience(String,
 * String)}: the call's {@code CallOptions} authority if set, else the channel's). A call to an
 * authority with no audience fails before anything is sent: a token never goes where it was
 * not meant to.
 *
 * <p><b>Whose context.</b> The call context of gRPC's {@code Context} ({@link
 * GrpcCallContext#current()}, set by {@link InternalTokenServerInterceptor}) if there is one,
 * else the thread's {@link CallContext#current()} (set by the servlet filters, or by {@code
 * CallContext.open()}). The token is minted on the thread that makes the call, when it is made.
 *
 * <p><b>Failures</b> are thrown to the code making the call, before anything is sent, as the
 * HTTP helpers do: {@link IllegalStateException} without a call context or with an unknown
 * authority, {@link dev.sessionless.propagation.NoSessionException} at the edge without a
 * session, {@link dev.sessionless.core.TokenException} as the minter throws it (such as {@code
 * EXPIRED} for a caller's token too close to its end to re-mint, which {@link
 * InternalTokenServerInterceptor} answers as the caller's).
 *
 * <p>Immutable and thread-safe.
 */
public final class InternalTokenClientInterceptor implements ClientInterceptor {
  private final OutgoingTokens outgoing;
  private final String audience;
  private final Map<String, String> byAuthority;

  private InternalTokenClientInterceptor(Builder b) {
    this.outgoing = b.outgoing;
    this.audience = b.audience;
    this.byAuthority = Map.copyOf(b.byAuthority);
  }

  /** A builder; the outgoing tokens and an audience (or audiences by authority) are required. */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
    String target = audience != null ? audience : audienceOf(options.getAuthority() != null
        ? options.getAuthority() : next.authority());
    CallContext context = GrpcCallContext.current().or(CallContext::current).orElseThrow(() -> new IllegalStateException(
        "no call context for the gRPC call to '" + target + "': make it while serving a call that "
            + "InternalTokenServerInterceptor, InternalTokenFilter or EdgeContextFilter passed, or bind one with CallContext.open()"));
    Map<String, String> headers = outgoing.headersFor(context, target);
    return new ForwardingClientCall.SimpleForwardingClientCall<Q, R>(next.newCall(method, options)) {
      @Override
      public void start(Listener<R> listener, Metadata metadata) {
        for (Map.Entry<String, String> h : headers.entrySet()) {
          Metadata.Key<String> key = MetadataKeys.of(h.getKey());
          metadata.discardAll(key);
          metadata.put(key, h.getValue());
        }
        super.start(listener, metadata);
      }
    };
  }

  private String audienceOf(String authority) {
    String a = authority == null ? null : byAuthority.get(authority);
    if (a == null) {
      throw new IllegalStateException("no audience for the gRPC authority '" + authority
          + "': add InternalTokenClientInterceptor.Builder.audience(\"" + authority + "\", audience)");
    }
    return a;
  }

  /** The audiences, never a token. */
  @Override
  public String toString() {
    return "InternalTokenClientInterceptor[" + (audience != null ? "audience=" + audience : "byAuthority=" + byAuthority) + "]";
  }

  /** Builds an {@link InternalTokenClientInterceptor}, checking it at {@link #build()}. Not thread-safe. */
  public static final class Builder {
    private OutgoingTokens outgoing;
    private String audience;
    private final Map<String, String> byAuthority = new LinkedHashMap<>();

    private Builder() {}

    /** Mints the tokens, with the grant of each callee. Required. */
    public Builder outgoing(OutgoingTokens outgoing) {
      this.outgoing = Objects.requireNonNull(outgoing, "outgoing");
      return this;
    }

    /** Every call carries a token for {@code audience}: for a channel to one service. */
    public Builder audience(String audience) {
      this.audience = Objects.requireNonNull(audience, "audience");
      return this;
    }

    /**
     * Calls to {@code authority} ({@code host:port} as the channel or the call's options name
     * it) carry a token for {@code audience}.
     *
     * @throws IllegalArgumentException if the authority was given before
     */
    public Builder audience(String authority, String audience) {
      Objects.requireNonNull(audience, "audience");
      if (byAuthority.putIfAbsent(Objects.requireNonNull(authority, "authority"), audience) != null) {
        throw new IllegalArgumentException("authority '" + authority + "' was given an audience twice");
      }
      return this;
    }

    /**
     * The interceptor.
     *
     * @throws IllegalStateException if the outgoing tokens are missing, or neither or both of
     *     one audience and audiences by authority were given
     * @throws IllegalArgumentException if an audience has no grant in the outgoing tokens, or
     *     their header cannot travel as gRPC metadata
     */
    public InternalTokenClientInterceptor build() {
      if (outgoing == null) {
        throw new IllegalStateException("outgoing is required: OutgoingTokens.builder()...build()");
      }
      if ((audience == null) == byAuthority.isEmpty()) {
        throw new IllegalStateException("give either audience(audience) for every call or audience(authority, audience) "
            + "per target, not " + (audience == null ? "neither" : "both"));
      }
      MetadataKeys.of(outgoing.header());
      if (audience != null) {
        outgoing.requireGrant(audience);
      }
      byAuthority.values().forEach(outgoing::requireGrant);
      return new InternalTokenClientInterceptor(this);
    }
  }
}
