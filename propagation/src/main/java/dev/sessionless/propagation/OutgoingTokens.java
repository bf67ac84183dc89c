package dev.sessionless.propagation;

import dev.sessionless.propagation.internal.Callee;
import java.net.http.HttpClient;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Tokens and trace headers for outgoing calls: which callee (audience) gets which state values,
 * and the token for a call made while serving the current {@link CallContext}, minted from the
 * browser session at the edge or re-minted (narrower) from the token this service was called
 * with.
 *
 * <pre>{@code
 * OutgoingTokens outgoing = OutgoingTokens.builder().minter(minter)
 *     .grant("orders", "cart", "tenant")          // the orders service sees these two values
 *     .build();
 * HttpClient orders = outgoing.httpClient(HttpClient.newHttpClient(), "orders");
 * orders.send(request, BodyHandlers.ofString());   // with Authorization and traceparent
 * }</pre>
 *
 * <p>Without the filters, mint directly: {@link InternalTokenMinter#mint} is the plain "token
 * for audience X" call. The Spring ({@code dev.sessionless.propagation.spring}) and OkHttp
 * ({@code dev.sessionless.propagation.okhttp}) helpers take an {@code OutgoingTokens} too.
 *
 * <p>Immutable and thread-safe.
 */
public final class OutgoingTokens {
  private final InternalTokenMinter minter;
  private final Map<String, List<String>> grants;
  private final String header;
  private final Map<String, List<String>> scopes;

  private OutgoingTokens(Builder b) {
    this.minter = b.minter;
    this.scopes = Map.copyOf(b.scopes);
    this.grants = Map.copyOf(b.grants);
    this.header = b.header != null ? b.header : b.minter.profile().header();
  }

  /** A builder; the minter and at least one grant are required. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The header the token goes in: unless set, the minter's profile's, {@code Authorization} (as
   * {@code Bearer <token>}) or {@code Txn-Token} (the bare token).
   */
  public String header() {
    return header;
  }

  /**
   * The token for a call to {@code audience} from the current call context.
   *
   * @throws NoSessionException if the context has neither a session nor a token (a request
   *     without a browser session at the edge), which {@link EdgeContextFilter} answers {@code 401}
   * @throws IllegalStateException if no context is bound to this thread
   * @throws IllegalArgumentException if {@code audience} has no grant
   * @throws dev.sessionless.core.TokenException as the minter does ({@code EXPIRED}, ...)
   */
  public String tokenFor(String audience) {
    CallContext context = CallContext.current().orElseThrow(() -> new IllegalStateException(
        "no call context on this thread: call from a request passed by EdgeContextFilter or InternalTokenFilter, "
            + "or bind one with CallContext.open()"));
    return tokenFor(context, audience);
  }

  /** The token for a call to {@code audience} from {@code context} (see {@link #tokenFor(String)}). */
  public String tokenFor(CallContext context, String audience) {
    Objects.requireNonNull(context, "context");
    List<String> names = grants.get(Objects.requireNonNull(audience, "audience"));
    if (names == null) {
      throw new IllegalArgumentException("no grant for audience '" + audience
          + "': add OutgoingTokens.Builder.grant(\"" + audience + "\", stateNames...)");
    }
    if (context.token().isPresent()) {
      List<String> scope = scopes.get(audience);
      return scope == null ? minter.remint(context.token().get(), audience, names)
          : minter.remint(context.token().get(), audience, names, scope);
    }
    EdgeSession session = context.session().orElseThrow(NoSessionException::new);
    return minter.mint(session, audience, names, context.trace());
  }

  /**
   * The headers for one call to {@code audience} from the current context: the token, and a
   * {@code traceparent} that is a child of the context's trace.
   *
   * @throws IllegalStateException as {@link #tokenFor(String)}
   */
  public Map<String, String> headersFor(String audience) {
    return headersFor(CallContext.current().orElseThrow(() -> new IllegalStateException(
        "no call context on this thread: see OutgoingTokens.tokenFor")), audience);
  }

  /**
   * The headers for one call to {@code audience} from {@code context} (for calls made on
   * another thread than the one serving the request).
   */
  public Map<String, String> headersFor(CallContext context, String audience) {
    Objects.requireNonNull(context, "context");
    Map<String, String> h = new LinkedHashMap<>();
    h.put(header, minter.profile().headerValue(tokenFor(context, audience)));
    h.put(TraceContext.HEADER, context.trace().child().header());
    return h;
  }

  /**
   * An {@link HttpClient} that sends every request through {@code delegate} with the headers
   * of {@link #headersFor(String)} for {@code audience} (replacing any of the same name),
   * computed on the calling thread, also for {@code sendAsync}. Its configuration is the
   * delegate's; closing it (JDK 21 and later) leaves the delegate open: close that yourself.
   *
   * @throws IllegalArgumentException if {@code audience} has no grant, or if {@code delegate}
   *     follows redirects: the JDK client re-sends a request's headers along a redirect, to
   *     another origin too, so the token would reach whatever a redirect names
   */
  public HttpClient httpClient(HttpClient delegate, String audience) {
    Objects.requireNonNull(delegate, "delegate");
    Callee callee = new Callee(this, audience);
    if (delegate.followRedirects() != HttpClient.Redirect.NEVER) {
      throw new IllegalArgumentException("the HttpClient follows redirects (" + delegate.followRedirects()
          + "), and it re-sends every header, the internal token too, to wherever a redirect points: build it with "
          + "followRedirects(HttpClient.Redirect.NEVER) (HttpClient.newHttpClient() does) and handle a 3xx yourself");
    }
    return new TokenAttachingHttpClient(delegate, callee);
  }

  /**
   * Checks that calls to {@code audience} have a grant (for helpers that check at build time).
   *
   * @throws IllegalArgumentException if they have none
   */
  public void requireGrant(String audience) {
    if (!grants.containsKey(Objects.requireNonNull(audience, "audience"))) {
      throw new IllegalArgumentException("no grant for audience '" + audience
          + "': add OutgoingTokens.Builder.grant(\"" + audience + "\", stateNames...)");
    }
  }

  /** The audiences and their state names. */
  @Override
  public String toString() {
    return "OutgoingTokens[" + grants + "]";
  }

  /** Builds {@link OutgoingTokens}. Not thread-safe. */
  public static final class Builder {
    private InternalTokenMinter minter;
    private final Map<String, List<String>> grants = new LinkedHashMap<>();
    private final Map<String, List<String>> scopes = new LinkedHashMap<>();
    private String header;

    private Builder() {}

    /** Mints the tokens: this service's issuer and keys. Required. */
    public Builder minter(InternalTokenMinter minter) {
      this.minter = Objects.requireNonNull(minter, "minter");
      return this;
    }

    /** Calls to {@code audience} carry these state values (those the session or token has). */
    public Builder grant(String audience, String... stateNames) {
      return grant(audience, List.of(stateNames));
    }

    /**
     * Calls to {@code audience} carry these state values (those the session or token has), in
     * this order.
     *
     * @throws IllegalArgumentException if the audience was granted before
     */
    public Builder grant(String audience, Collection<String> stateNames) {
      Objects.requireNonNull(audience, "audience");
      if (grants.putIfAbsent(audience, List.copyOf(new LinkedHashSet<>(stateNames))) != null) {
        throw new IllegalArgumentException("audience '" + audience + "' was granted twice");
      }
      return this;
    }

    /**
     * In the Transaction Token profile, the {@code scope} of the tokens this service re-mints
     * for calls to {@code audience}: a subset of the scope it was called with, which a re-mint
     * may only narrow ({@link InternalTokenMinter#remint(InternalToken, String, Collection,
     * Collection)}). Without it a re-mint keeps the caller's scope. The edge's tokens take the
     * minter's {@linkplain InternalTokenMinter.Builder#scope scope}.
     *
     * @throws IllegalArgumentException if the audience was given a scope before
     */
    public Builder scope(String audience, String... scope) {
      Objects.requireNonNull(audience, "audience");
      if (scopes.putIfAbsent(audience, List.of(scope)) != null) {
        throw new IllegalArgumentException("audience '" + audience + "' was given a scope twice");
      }
      return this;
    }

    /**
     * The header for the token, as the callee's {@link InternalTokenFilter} reads it; if not
     * set, the minter's profile's ({@code Authorization} or {@code Txn-Token}).
     */
    public Builder header(String name) {
      this.header = BuilderArgs.headerName(name);
      return this;
    }

    /**
     * The outgoing tokens.
     *
     * @throws IllegalStateException if the minter or every grant is missing
     */
    public OutgoingTokens build() {
      if (minter == null) {
        throw new IllegalStateException("minter is required");
      }
      if (grants.isEmpty()) {
        throw new IllegalStateException("at least one grant is required: grant(audience, stateNames...)");
      }
      return new OutgoingTokens(this);
    }
  }
}
