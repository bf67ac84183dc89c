package dev.sessionless.propagation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.propagation.okhttp.InternalTokenInterceptor;
import dev.sessionless.propagation.spring.InternalTokenExchangeFilter;
import jakarta.servlet.DispatcherType;
import java.io.IOException;
import java.net.http.HttpClient;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.reactive.JdkClientHttpConnector;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * Spring's RestClient and WebClient and OkHttp, each calling a real Jetty service behind
 * {@link InternalTokenFilter} with the token and traceparent their helper attaches.
 */
class ClientHelpersTest {
  static final String EDGE = "https://edge.example";
  static final KeySet edgeKeys = KeySet.of(TokenKey.generate("edge-1", Algorithm.EDDSA));
  static final TraceContext TRACE = TraceContext.parse("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01").orElseThrow();
  static final OutgoingTokens OUT = OutgoingTokens.builder()
      .minter(InternalTokenMinter.builder().keys(edgeKeys).algorithm(Algorithm.EDDSA).issuer(EDGE).build())
      .grant("billing", "tenant").build();
  static LoopbackJetty jwks;
  static Keyring edgePublic;
  static LoopbackJetty billing;

  @BeforeAll
  static void start() throws Exception {
    jwks = new LoopbackJetty(JwksServlet.builder().keys(edgeKeys).build());
    edgePublic = Keyring.builder().jwksUrl(jwks.uri).httpAllowInsecurePlainHttp(true).build();
    InternalTokenFilter filter = InternalTokenFilter.builder().verifier(InternalTokenVerifier.builder()
        .audience("billing").issuer(EDGE, edgePublic).build()).build();
    billing = new LoopbackJetty(context -> {
      context.addFilter(new FilterHolder(filter), "/*", EnumSet.of(DispatcherType.REQUEST));
      context.addServlet(new ServletHolder(new InternalTokenFilterTest.Echo()), "/*");
    });
  }

  @AfterAll
  static void stop() throws Exception {
    billing.close();
    edgePublic.close();
    jwks.close();
  }

  static CallContext context() {
    EdgeSession s = EdgeSession.builder().sessionId("s-5").subject("dave").expiresAt(Instant.now().plusSeconds(900))
        .put("tenant", "t-5").put("cart", List.of("jam")).build();
    return CallContext.ofSession(TRACE, () -> Optional.of(s));
  }

  /** The echo's fields: issuer, subject, sid, tenant, actors, trace id, -, span id, state names. */
  static void assertVerified(String body) {
    String[] f = body.split("\\|");
    assertEquals(List.of(EDGE, "dave", "s-5", "t-5", "[" + EDGE + "]", TRACE.traceId()), List.of(f).subList(0, 6), body);
    assertNotEquals(TRACE.spanId(), f[7]);
    assertEquals("[tenant]", f[8]);
  }

  @Test
  void restClientInterceptorAttachesTokenAndTraceparent() {
    RestClient client = RestClient.builder().requestFactory(new JdkClientHttpRequestFactory(HttpClient.newHttpClient()))
        .baseUrl(billing.root.toString())
        .requestInterceptor(new dev.sessionless.propagation.spring.InternalTokenInterceptor(OUT, "billing")).build();
    try (CallContext.Scope s = context().open()) {
      assertVerified(client.get().uri("/invoices").retrieve().body(String.class));
    }
    assertThrows(IllegalStateException.class, () -> client.get().uri("/invoices").retrieve().body(String.class),
        "no context, nothing sent");
  }

  @Test
  void webClientFilterAttachesTokenAndTraceparentFromThreadOrAttribute() {
    WebClient client = WebClient.builder().clientConnector(new JdkClientHttpConnector(HttpClient.newHttpClient()))
        .baseUrl(billing.root.toString()).filter(new InternalTokenExchangeFilter(OUT, "billing")).build();
    try (CallContext.Scope s = context().open()) {
      assertVerified(client.get().uri("/invoices").retrieve().bodyToMono(String.class).block(Duration.ofSeconds(30)));
    }
    assertVerified(client.get().uri("/invoices").attribute(InternalTokenExchangeFilter.CONTEXT_ATTRIBUTE, context())
        .retrieve().bodyToMono(String.class).block(Duration.ofSeconds(30)));
    assertThrows(IllegalStateException.class, () -> client.get().uri("/invoices").retrieve().bodyToMono(String.class).block(Duration.ofSeconds(30)));
  }

  @Test
  void okHttpInterceptorAttachesTokenAndTraceparentOnExecuteAndTaggedEnqueue() throws Exception {
    OkHttpClient client = new OkHttpClient.Builder().addInterceptor(new InternalTokenInterceptor(OUT, "billing")).build();
    Request request = new Request.Builder().url(billing.root.resolve("invoices").toString()).build();
    try (CallContext.Scope s = context().open(); Response r = client.newCall(request).execute()) {
      assertEquals(200, r.code());
      assertVerified(r.body().string());
    }
    CompletableFuture<String> async = new CompletableFuture<>();
    client.newCall(request.newBuilder().tag(CallContext.class, context()).build()).enqueue(new Callback() {
      @Override
      public void onFailure(Call call, IOException e) {
        async.completeExceptionally(e);
      }

      @Override
      public void onResponse(Call call, Response response) throws IOException {
        try (response) {
          async.complete(response.body().string());
        }
      }
    });
    assertVerified(async.get());
    IOException e = assertThrows(IOException.class, () -> client.newCall(request).execute());
    assertTrue(e.getMessage().contains("billing"), e.getMessage());
  }

  @Test
  void helpersRefuseAnAudienceWithoutAGrant() {
    assertThrows(IllegalArgumentException.class, () -> new InternalTokenInterceptor(OUT, "orders"));
    assertThrows(IllegalArgumentException.class, () -> new InternalTokenExchangeFilter(OUT, "orders"));
    assertThrows(IllegalArgumentException.class,
        () -> new dev.sessionless.propagation.spring.InternalTokenInterceptor(OUT, "orders"));
  }
}
