package dev.sessionless.propagation.reactive;

import dev.sessionless.propagation.CallContext;
import dev.sessionless.propagation.InternalToken;
import dev.sessionless.propagation.InternalTokenVerifier;
import dev.sessionless.propagation.TraceContext;
import dev.sessionless.propagation.internal.Admission;
import dev.sessionless.propagation.internal.Answer;
import dev.sessionless.propagation.internal.Args;
import dev.sessionless.propagation.internal.Attributes;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * The receiving side of an internal service on Spring WebFlux, the twin of the servlet {@link
 * dev.sessionless.propagation.InternalTokenFilter} (and, unlike it, free of the Servlet API):
 * every exchange must present an internal token for this service ({@code Authorization: Bearer
 * <token>} unless another header is configured), which {@link InternalTokenVerifier} checks. It decides exactly as the servlet filter does (the same code):
 * a missing token gets {@code 401} with {@code WWW-Authenticate: Bearer}, a refused one (forged,
 * expired, another audience, an unknown key or issuer, revoked) {@code 401} with {@code
 * WWW-Authenticate: Bearer error="invalid_token"}, a failure on this side (a key source or
 * revocation source that cannot answer, a check that throws) {@code 503} with {@code
 * Retry-After: 5}, logged at ERROR; the same one-line bodies and {@code Cache-Control:
 * no-store}, no details. A caller's token that lapses before the application could re-mint it
 * (see {@code InternalTokenFilter}) is answered {@code 401} too, never a {@code 500}.
 *
 * <pre>{@code
 * WebFilter internal = InternalTokenWebFilter.builder().verifier(verifier).build();
 * WebHttpHandlerBuilder.webHandler(handler).filter(internal).build();   // or a @Bean WebFilter
 * }</pre>
 *
 * <p>The application finds the verified token and its {@link CallContext} as the exchange
 * attributes {@link #ATTRIBUTE} and {@link #CONTEXT_ATTRIBUTE}, and in Reactor's {@code
 * Context} under {@link ReactiveCallContext#TOKEN_KEY} and {@link ReactiveCallContext#KEY}
 * ({@link ReactiveCallContext#current()}), where {@code InternalTokenExchangeFilter} takes it for
 * the next call. Verification is CPU work only (a keyring refreshes its keys on its own thread),
 * so it runs on the event loop; a {@link Builder#check} must not block either.
 *
 * <p>Thread-safe.
 */
public final class InternalTokenWebFilter implements WebFilter {
  /** The exchange attribute holding the verified {@link InternalToken} (as the servlet filter's). */
  public static final String ATTRIBUTE = Attributes.TOKEN;
  /** The exchange attribute holding the exchange's {@link CallContext} (as the servlet filter's). */
  public static final String CONTEXT_ATTRIBUTE = Attributes.CONTEXT;
  private static final System.Logger LOG = System.getLogger(InternalTokenWebFilter.class.getName());

  private final Admission admission;
  private final String header;

  private InternalTokenWebFilter(Builder b) {
    this.admission = new Admission(b.verifier, b.check, LOG);
    this.header = b.header != null ? b.header : b.verifier.profile().header();
  }

  /** A builder; the verifier is required. */
  public static Builder builder() {
    return new Builder();
  }

  /** The verified token of an exchange this filter passed, if any. */
  public static Optional<InternalToken> token(ServerWebExchange exchange) {
    Object t = exchange.getAttributes().get(ATTRIBUTE);
    return t instanceof InternalToken ? Optional.of((InternalToken) t) : Optional.empty();
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
    HttpHeaders headers = exchange.getRequest().getHeaders();
    TraceContext trace = Admission.trace(headers.getFirst(TraceContext.HEADER));
    Admission.Decision decision = admission.decide(headers.getFirst(header), trace);
    ServerHttpResponse response = exchange.getResponse();
    if (!decision.admitted()) {
      return Responses.write(response, decision.answer());
    }
    InternalToken verified = decision.token();
    CallContext context = CallContext.of(trace, verified);
    exchange.getAttributes().put(ATTRIBUTE, verified);
    exchange.getAttributes().put(CONTEXT_ATTRIBUTE, context);
    return chain.filter(exchange)
        .onErrorResume(e -> {
          Answer lapsed = response.isCommitted() ? null : admission.lapsed(e, verified, trace);
          if (lapsed == null) {
            return Mono.error(e);
          }
          // The caller's token lapsed before the application could re-mint it: the caller's
          // expired token, not a failure here (InternalTokenFilter does the same).
          response.getHeaders().clear();
          return Responses.write(response, lapsed);
        })
        .contextWrite(ReactiveCallContext.with(context));
  }

  /** The header and verifier. */
  @Override
  public String toString() {
    return "InternalTokenWebFilter[header=" + header + ", " + admission.verifier() + "]";
  }

  /** Builds an {@link InternalTokenWebFilter}, checking it at {@link #build()}. Not thread-safe. */
  public static final class Builder {
    private InternalTokenVerifier verifier;
    private String header;
    private Predicate<? super InternalToken> check = t -> true;

    private Builder() {}

    /** Verifies the tokens (this service's audience, the accepted issuers). Required. */
    public Builder verifier(InternalTokenVerifier verifier) {
      this.verifier = Objects.requireNonNull(verifier, "verifier");
      return this;
    }

    /**
     * The header carrying the token: by default the verifier's profile's, {@code Authorization}
     * ({@code Bearer <token>}) or {@code Txn-Token} (the bare token).
     *
     * @throws IllegalArgumentException if it is blank
     */
    public Builder header(String name) {
      this.header = Args.headerName(name);
      return this;
    }

    /**
     * A check after verification, before the application, run on the event loop (it must not
     * block): {@code false} refuses the token with {@code 401}; a {@code TokenException} it
     * throws counts by its reason, anything else it throws is a {@code 503}. Accepts every
     * verified token if not set.
     */
    public Builder check(Predicate<? super InternalToken> check) {
      this.check = Objects.requireNonNull(check, "check");
      return this;
    }

    /**
     * The filter.
     *
     * @throws IllegalStateException if no verifier was given
     */
    public InternalTokenWebFilter build() {
      if (verifier == null) {
        throw new IllegalStateException("verifier is required: InternalTokenVerifier.builder()...build()");
      }
      return new InternalTokenWebFilter(this);
    }
  }
}
