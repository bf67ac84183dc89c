package dev.sessionless.propagation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.propagation.spring.InternalTokenExchangeFilter;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * The client helpers and a redirect to another origin: a real callee on one loopback Jetty
 * answers {@code 302} to a second Jetty (another port, so another origin), which records the
 * token headers it receives. No helper may let the token reach it.
 */
@Timeout(60)
class RedirectTest {
  static final KeySet KEYS = KeySet.of(TokenKey.generate("edge-1", Algorithm.ES256));
  static final InternalTokenMinter MINTER = InternalTokenMinter.builder().keys(KEYS).issuer("https://edge.example").build();
  static final OutgoingTokens OUT = OutgoingTokens.builder().minter(MINTER).grant("billing", "tenant").build();
  static final OutgoingTokens OUT_CUSTOM_HEADER = OutgoingTokens.builder().minter(MINTER).grant("billing", "tenant")
      .header("X-Internal-Token").build();
  static final AtomicReference<String> seenByOther = new AtomicReference<>();
  static final AtomicReference<String> seenBySameOrigin = new AtomicReference<>();
  static LoopbackJetty other;
  static LoopbackJetty callee;

  /** Records the token headers of what reaches it. */
  static final class Recorder extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private final transient AtomicReference<String> seen;

    Recorder(AtomicReference<String> seen) {
      this.seen = seen;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      String a = req.getHeader("Authorization");
      String x = req.getHeader("X-Internal-Token");
      seen.set(a == null && x == null ? "none" : "token");
      resp.getWriter().write("other");
    }
  }

  @BeforeAll
  static void start() throws Exception {
    other = new LoopbackJetty(c -> c.addServlet(new ServletHolder(new Recorder(seenByOther)), "/*"));
    callee = new LoopbackJetty(c -> {
      c.addServlet(new ServletHolder(new HttpServlet() {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
          resp.sendRedirect(other.root().resolve("sink").toString());
        }
      }), "/away");
      c.addServlet(new ServletHolder(new Recorder(seenBySameOrigin)), "/here");
    });
  }

  @AfterAll
  static void stop() throws Exception {
    callee.close();
    other.close();
  }

  @BeforeEach
  void reset() {
    seenByOther.set(null);
    seenBySameOrigin.set(null);
  }

  static CallContext context() {
    return ClientHelpersTest.context();
  }

  @Test
  void theJdkClientHelperRefusesADelegateThatFollowsRedirectsWhichWouldResendTheTokenElsewhere() throws Exception {
    for (HttpClient.Redirect policy : new HttpClient.Redirect[] {HttpClient.Redirect.NORMAL, HttpClient.Redirect.ALWAYS}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> OUT.httpClient(HttpClient.newBuilder().followRedirects(policy).build(), "billing"));
      assertTrue(e.getMessage().contains("followRedirects(HttpClient.Redirect.NEVER)"), e.getMessage());
    }
    HttpClient client = OUT.httpClient(HttpClient.newHttpClient(), "billing");
    try (CallContext.Scope s = context().open()) {
      HttpResponse<String> r = client.send(HttpRequest.newBuilder(callee.root().resolve("away"))
          .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(302, r.statusCode(), "the redirect comes back to the caller");
    }
    assertNull(seenByOther.get(), "nothing reached the other origin");
  }

  @Test
  void springRestClientWithItsDefaultFactoryDoesNotCarryTheTokenToAnotherOrigin() {
    RestClient client = RestClient.builder()
        .requestInterceptor(new dev.sessionless.propagation.spring.InternalTokenInterceptor(OUT, "billing")).build();
    try (CallContext.Scope s = context().open()) {
      ResponseEntity<String> r = client.get().uri(callee.root().resolve("away")).retrieve()
          .onStatus(st -> st.is3xxRedirection(), (req, res) -> { }).toEntity(String.class);
      assertEquals(302, r.getStatusCode().value());
    }
    assertTrue(seenByOther.get() == null || seenByOther.get().equals("none"), String.valueOf(seenByOther.get()));
  }

  @Test
  void springWebClientWithItsDefaultConnectorDoesNotCarryTheTokenToAnotherOrigin() {
    WebClient client = WebClient.builder().filter(new InternalTokenExchangeFilter(OUT, "billing")).build();
    int status = client.get().uri(callee.root().resolve("away")).attribute(InternalTokenExchangeFilter.CONTEXT_ATTRIBUTE,
        context()).exchangeToMono(res -> res.releaseBody().thenReturn(res.statusCode().value()))
        .block(Duration.ofSeconds(20));
    assertEquals(302, status);
    assertTrue(seenByOther.get() == null || seenByOther.get().equals("none"), String.valueOf(seenByOther.get()));
  }

  @Test
  void okHttpDropsAuthorizationAcrossHostsAndTheInterceptorRefusesAnotherHeaderAsAnApplicationInterceptor()
      throws Exception {
    OkHttpClient app = new OkHttpClient.Builder().callTimeout(Duration.ofSeconds(20))
        .addInterceptor(new dev.sessionless.propagation.okhttp.InternalTokenInterceptor(OUT, "billing")).build();
    try (Response r = app.newCall(new Request.Builder().url(callee.root().resolve("away").toString())
        .tag(CallContext.class, context()).build()).execute()) {
      assertEquals(200, r.code(), "OkHttp followed the redirect");
    }
    assertEquals("none", seenByOther.get(), "OkHttp dropped Authorization for the other host");

    reset();
    OkHttpClient custom = new OkHttpClient.Builder().callTimeout(Duration.ofSeconds(20))
        .addInterceptor(new dev.sessionless.propagation.okhttp.InternalTokenInterceptor(OUT_CUSTOM_HEADER, "billing"))
        .build();
    IOException e = assertThrows(IOException.class, () -> custom.newCall(new Request.Builder()
        .url(callee.root().resolve("away").toString()).tag(CallContext.class, context()).build()).execute().close());
    assertTrue(e.getMessage().contains("addNetworkInterceptor"), e.getMessage());
    assertNull(seenByOther.get(), "nothing was sent");
  }

  @Test
  void okHttpAsANetworkInterceptorAttachesTheTokenOnlyToTheCallsOwnOrigin() throws Exception {
    OkHttpClient network = new OkHttpClient.Builder().callTimeout(Duration.ofSeconds(20))
        .addNetworkInterceptor(new dev.sessionless.propagation.okhttp.InternalTokenInterceptor(OUT_CUSTOM_HEADER,
            "billing")).build();
    try (Response r = network.newCall(new Request.Builder().url(callee.root().resolve("away").toString())
        .tag(CallContext.class, context()).build()).execute()) {
      assertEquals(200, r.code());
    }
    assertEquals("none", seenByOther.get(), "the hop to the other origin carried no token");
    try (Response r = network.newCall(new Request.Builder().url(callee.root().resolve("here").toString())
        .tag(CallContext.class, context()).build()).execute()) {
      assertEquals(200, r.code());
    }
    assertEquals("token", seenBySameOrigin.get(), "the call's own origin gets the token");
  }
}
