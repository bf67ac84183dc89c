package dev.sessionless.propagation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.propagation.spring.InternalTokenInterceptor;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * The servlet pieces in the Transaction Token profile on a real Jetty: Spring's {@code
 * RestClient} with {@link InternalTokenInterceptor} sends the token in {@code Txn-Token}, and
 * {@link InternalTokenFilter} reads it there and answers refusals as in the internal profile.
 */
@Timeout(60)
class TransactionTokenFilterTest {
  static final String EDGE = "https://edge.example";
  static final String DOMAIN = "trust-domain.example";
  static final KeySet KEYS = KeySet.of(TokenKey.generate("edge-1", Algorithm.ES256));
  static final TraceContext TRACE = TraceContext.parse("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
      .orElseThrow();

  static CallContext context() {
    EdgeSession s = EdgeSession.builder().sessionId("s-5").subject("dave").expiresAt(Instant.now().plusSeconds(900))
        .put("tenant", "t-5").build();
    return CallContext.ofSession(TRACE, () -> Optional.of(s));
  }

  /** Answers with what the verified Transaction Token told it. */
  static final class Echo extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      InternalToken t = InternalTokenFilter.token(req).orElseThrow();
      resp.getWriter().write(String.join("|", t.subject().orElse("-"), String.valueOf(t.scope()),
          t.get("tenant", String.class).orElse("-"), CallContext.current().orElseThrow().traceId()));
    }
  }

  static HttpResponse<String> get(URI uri, String header, String value) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30));
    if (header != null) {
      b.header(header, value);
    }
    return HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void restClientSendsTheTransactionTokenInItsHeaderAndTheFilterAcceptsIt() throws Exception {
    InternalTokenVerifier verifier = InternalTokenVerifier.builder().profile(TokenProfile.TXN_TOKEN).audience(DOMAIN)
        .issuer(EDGE, KEYS).build();
    InternalTokenMinter minter = InternalTokenMinter.builder().keys(KEYS).issuer(EDGE).profile(TokenProfile.TXN_TOKEN)
        .trustDomain(DOMAIN).scope("pay").build();
    OutgoingTokens out = OutgoingTokens.builder().minter(minter).grant("billing", "tenant").build();
    InternalTokenFilter filter = InternalTokenFilter.builder().verifier(verifier).build();
    try (LoopbackJetty billing = new LoopbackJetty(context -> {
      context.addFilter(new FilterHolder(filter), "/*", EnumSet.of(DispatcherType.REQUEST));
      context.addServlet(new ServletHolder(new Echo()), "/*");
    })) {
      RestClient client = RestClient.builder().requestFactory(new JdkClientHttpRequestFactory(HttpClient.newHttpClient()))
          .baseUrl(billing.root.toString()).requestInterceptor(new InternalTokenInterceptor(out, "billing")).build();
      try (CallContext.Scope s = context().open()) {
        assertEquals("dave|[pay]|t-5|" + TRACE.traceId(), client.get().uri("/pay").retrieve().body(String.class));
      }
      String txnToken = out.tokenFor(context(), "billing");
      assertEquals(200, get(billing.root, TransactionTokens.HEADER, txnToken).statusCode());
      HttpResponse<String> inAuthorization = get(billing.root, "Authorization", "Bearer " + txnToken);
      assertEquals(401, inAuthorization.statusCode(), "the draft's header only");
      String internal = InternalTokenMinter.builder().keys(KEYS).issuer(EDGE).build()
          .mint(EdgeSession.builder().sessionId("s").subject("dave").build(), DOMAIN, Set.of());
      HttpResponse<String> otherProfile = get(billing.root, TransactionTokens.HEADER, internal);
      assertEquals(List.of("401", "Bearer error=\"invalid_token\""), List.of(String.valueOf(otherProfile.statusCode()),
          otherProfile.headers().firstValue("WWW-Authenticate").orElse("")));
      HttpResponse<String> two = get(billing.root, TransactionTokens.HEADER, txnToken + ", " + txnToken);
      assertEquals(List.of("401", "Bearer"), List.of(String.valueOf(two.statusCode()),
          two.headers().firstValue("WWW-Authenticate").orElse("")), "exactly one token, or none");
    }
  }
}
