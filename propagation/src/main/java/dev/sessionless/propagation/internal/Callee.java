package dev.sessionless.propagation.internal;

import dev.sessionless.propagation.CallContext;
import dev.sessionless.propagation.OutgoingTokens;
import java.util.Map;
import java.util.Objects;

/**
 * One callee of an outgoing-call helper (the JDK {@code HttpClient} wrapper, Spring's
 * interceptor and exchange filter, OkHttp's interceptor): its grant checked once, when the helper
 * is made, and the headers for each call, minted from the call context the request carries or,
 * without one, from the calling thread's. What is left in each helper is what its client library
 * makes different: how a context rides along a request, and how a failure is reported.
 *
 * <p>Not exported: the helpers' shared part, not API. Immutable and thread-safe.
 */
public final class Callee {
  private final OutgoingTokens tokens;
  private final String audience;

  /**
   * The callee {@code audience} of {@code tokens}.
   *
   * @throws IllegalArgumentException if {@code tokens} has no grant for {@code audience}
   */
  public Callee(OutgoingTokens tokens, String audience) {
    this.tokens = Objects.requireNonNull(tokens, "tokens");
    this.audience = Objects.requireNonNull(audience, "audience");
    tokens.requireGrant(audience);
  }

  /** The callee's name, the tokens' {@code aud}. */
  public String audience() {
    return audience;
  }

  /** The header the token goes in ({@link OutgoingTokens#header()}). */
  public String tokenHeader() {
    return tokens.header();
  }

  /**
   * The token and {@code traceparent} headers for one call.
   *
   * @param attached what the request carries for a context (a tag, an attribute), or null: used
   *     when it is a {@link CallContext}, the calling thread's context otherwise
   * @throws IllegalStateException as {@link OutgoingTokens#headersFor(String)} (no context, no
   *     session)
   * @throws dev.sessionless.core.TokenException as the minter does
   */
  public Map<String, String> headers(Object attached) {
    return attached instanceof CallContext
        ? tokens.headersFor((CallContext) attached, audience) : tokens.headersFor(audience);
  }

  /** {@code helper[audience]}: what each helper's {@code toString()} shows. */
  public String describe(String helper) {
    return helper + "[" + audience + "]";
  }
}
