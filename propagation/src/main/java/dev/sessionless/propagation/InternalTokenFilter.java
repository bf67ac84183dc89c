package dev.sessionless.propagation;

import dev.sessionless.core.TokenException;
import dev.sessionless.propagation.internal.Admission;
import dev.sessionless.propagation.internal.Answer;
import dev.sessionless.propagation.internal.Attributes;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The receiving side of an internal service: every request must present an internal token for
 * this service ({@code Authorization: Bearer <token>} unless another header is configured),
 * which {@link InternalTokenVerifier} checks; the application then finds it as the request
 * attribute {@link #ATTRIBUTE} ({@link #token(HttpServletRequest)}) and, on the serving thread,
 * in {@link CallContext#current()} together with the trace.
 *
 * <pre>{@code
 * InternalTokenFilter filter = InternalTokenFilter.builder().verifier(verifier).build();
 * context.addFilter(filter, "/*");   // as any servlet filter, before the application
 * }</pre>
 *
 * <p>A missing token gets {@code 401} with {@code WWW-Authenticate: Bearer}; a refused one
 * {@code 401} with {@code WWW-Authenticate: Bearer error="invalid_token"} (RFC 6750 section 3),
 * no details in the response, the reason logged at DEBUG on the {@code System.Logger} of this
 * class. A failure on this side (a {@link TokenException} whose reason is no rejection, such as
 * {@code REVOCATION_UNAVAILABLE} from a {@linkplain InternalTokenVerifier.Builder#revocation
 * revocation source} that cannot vouch for its copy, or {@code INTERNAL}) gets {@code 503}
 * without details and is logged at ERROR with its reason, as is a check that throws anything
 * else. Revoked sessions and subjects ({@code SESSION_REVOKED}, {@code SUBJECT_REVOKED}) are
 * refused like any bad token, when the verifier has a revocation source. The incoming {@code
 * traceparent} is kept if valid, else a new trace starts ({@link TraceContext}).
 *
 * <p><b>A token in its leeway.</b> The verifier accepts a token up to its clock leeway (30 s
 * unless set) after its expiry, for clocks that disagree; such a token cannot be re-minted for
 * the next call ({@link InternalTokenMinter#remint} refuses a parent with less than a second
 * left, with {@code TokenException} {@code EXPIRED}): riding on the leeway again at every hop
 * would stretch a lapsed token through the whole chain. When that exception (or one wrapping
 * it) leaves the application while the caller's token has less than that second left, and
 * the response is not committed yet, the filter answers what the caller's expired token
 * deserves: {@code 401} with {@code WWW-Authenticate: Bearer error="invalid_token"}, never a
 * {@code 500}; the caller mints a fresh token and calls again.
 *
 * <p><b>Hook</b>: {@link Builder#check(Predicate)} runs after verification, before the
 * application (for checks of its own; revocation belongs in the verifier); a {@code false}
 * answer refuses the token like a bad one, and a {@link TokenException} it throws is treated by
 * its reason.
 *
 * <p>Thread-safe. Synchronous requests only: a request that goes async carries the attribute,
 * but work on other threads has to {@link CallContext#open()} the context itself.
 */
public final class InternalTokenFilter implements Filter {
  /** The request attribute holding the verified {@link InternalToken}. */
  public static final String ATTRIBUTE = Attributes.TOKEN;
  /** The request attribute holding the request's {@link CallContext}. */
  public static final String CONTEXT_ATTRIBUTE = Attributes.CONTEXT;
  private static final System.Logger LOG = System.getLogger(InternalTokenFilter.class.getName());

  private final Admission admission;
  private final String header;

  private InternalTokenFilter(Builder b) {
    this.admission = new Admission(b.verifier, b.check, LOG);
    this.header = b.header != null ? b.header : b.verifier.profile().header();
  }

  /** A builder; the verifier is required. */
  public static Builder builder() {
    return new Builder();
  }

  /** The verified token of a request this filter passed, if any. */
  public static Optional<InternalToken> token(HttpServletRequest request) {
    Object t = request.getAttribute(ATTRIBUTE);
    return t instanceof InternalToken ? Optional.of((InternalToken) t) : Optional.empty();
  }

  @Override
  public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
    if (!(req instanceof HttpServletRequest) || !(res instanceof HttpServletResponse)) {
      chain.doFilter(req, res);
      return;
    }
    HttpServletRequest request = (HttpServletRequest) req;
    HttpServletResponse response = (HttpServletResponse) res;
    TraceContext trace = Admission.trace(request.getHeader(TraceContext.HEADER));
    Admission.Decision decision = admission.decide(request.getHeader(header), trace);
    if (!decision.admitted()) {
      Answers.write(response, decision.answer());
      return;
    }
    InternalToken verified = decision.token();
    CallContext context = CallContext.of(trace, verified);
    request.setAttribute(ATTRIBUTE, verified);
    request.setAttribute(CONTEXT_ATTRIBUTE, context);
    try (CallContext.Scope scope = context.open()) {
      chain.doFilter(request, response);
    } catch (IOException | ServletException | RuntimeException e) {
      Answer lapsed = response.isCommitted() ? null : admission.lapsed(e, verified, trace);
      if (lapsed == null) {
        throw e;
      }
      // The application could not re-mint because the caller's token lapsed while (or before)
      // it was served, inside the verifier's clock leeway: the caller's expired token, not a
      // failure here. The caller gets what it would have got a moment later: a refusal.
      response.reset();
      Answers.write(response, lapsed);
    }
  }

  /** The token of an {@code Authorization}-style value: the scheme {@code Bearer} (any case) and a token68. */
  static String bearer(String value) {
    return Admission.bearer(value);
  }

  /** The header and verifier. */
  @Override
  public String toString() {
    return "InternalTokenFilter[header=" + header + ", " + admission.verifier() + "]";
  }

  /** Builds an {@link InternalTokenFilter}, checking it at {@link #build()}. Not thread-safe. */
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

    /** The header carrying the token: by default the verifier's profile's, {@code Authorization}
     * ({@code Bearer <token>}) or {@code Txn-Token} (the bare token). */
    public Builder header(String name) {
      this.header = BuilderArgs.headerName(name);
      return this;
    }

    /**
     * A check after verification, before the application (where revocation plugs in): {@code
     * false} refuses the token with {@code 401}; a {@link TokenException} it throws counts by
     * its reason. Accepts every verified token if not set.
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
    public InternalTokenFilter build() {
      if (verifier == null) {
        throw new IllegalStateException("verifier is required: InternalTokenVerifier.builder()...build()");
      }
      return new InternalTokenFilter(this);
    }
  }
}
