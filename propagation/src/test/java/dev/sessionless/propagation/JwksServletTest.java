package dev.sessionless.propagation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.TokenKey;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The JWKS endpoint in a real Jetty 12 (ee10) over real HTTP on loopback. */
class JwksServletTest {
  static final HttpClient HTTP = HttpClient.newHttpClient();
  private LoopbackJetty server;

  /** Serves {@code servlet} at /jwks.json on a free loopback port; returns its URL. */
  URI serve(JwksServlet servlet) throws Exception {
    server = new LoopbackJetty(servlet);
    return server.uri;
  }

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  static HttpResponse<String> get(URI uri, String... headers) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).GET();
    if (headers.length > 0) {
      b.headers(headers);
    }
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Pending, signing and retired ES256 and EdDSA keys of one issuer. */
  static KeySet lifecycleKeys() {
    Instant now = Instant.now();
    return KeySet.of(
        TokenKey.generate("retired", Algorithm.ES256)
            .withLifecycle(null, now.minus(Duration.ofDays(2)), now.minus(Duration.ofDays(1)), now.plus(Duration.ofDays(1))),
        TokenKey.generate("signing", Algorithm.ES256),
        TokenKey.generate("pending", Algorithm.EDDSA)
            .withLifecycle(now.minus(Duration.ofMinutes(1)), now.plus(Duration.ofHours(1)), null, null));
  }

  @Test
  void servesEveryPublicKeyWithItsLifecycleAndNoPrivateMember() throws Exception {
    KeySet keys = lifecycleKeys();
    URI uri = serve(JwksServlet.builder().keys(keys).build());
    HttpResponse<String> r = get(uri);
    assertEquals(200, r.statusCode());
    assertEquals("application/jwk-set+json", r.headers().firstValue("Content-Type").orElseThrow());
    String body = r.body();
    assertEquals(keys.toPublicJwks(), body);
    for (String kid : new String[] {"retired", "signing", "pending"}) {
      assertTrue(body.contains("\"kid\":\"" + kid + "\""), body);
    }
    assertFalse(body.contains("\"d\""), "no private member: " + body);
    assertFalse(body.contains("\"k\""), "no secret member: " + body);
    KeySet read = KeySet.fromJwks(body);
    assertEquals(3, read.keys().size());
    for (TokenKey k : read.keys()) {
      assertFalse(k.canSign(), k + " is published public only");
      assertTrue(k.sameAs(keys.key(k.kid()).orElseThrow().publicOnly()), k.toString());
    }
  }

  @Test
  void strongEtagIsTheContentHashAndIfNoneMatchGets304() throws Exception {
    KeySet keys = lifecycleKeys();
    URI uri = serve(JwksServlet.builder().keys(keys).maxAge(Duration.ofSeconds(120)).build());
    HttpResponse<String> r = get(uri);
    String etag = r.headers().firstValue("ETag").orElseThrow();
    byte[] hash = MessageDigest.getInstance("SHA-256").digest(r.body().getBytes(StandardCharsets.UTF_8));
    assertEquals('"' + Base64.getUrlEncoder().withoutPadding().encodeToString(hash) + '"', etag);
    assertFalse(etag.startsWith("W/"), "a strong validator");
    assertEquals("public, max-age=120", r.headers().firstValue("Cache-Control").orElseThrow());

    HttpResponse<String> again = get(uri, "If-None-Match", etag);
    assertEquals(304, again.statusCode());
    assertEquals("", again.body());
    assertEquals(etag, again.headers().firstValue("ETag").orElseThrow());
    assertEquals("public, max-age=120", again.headers().firstValue("Cache-Control").orElseThrow());

    assertEquals(304, get(uri, "If-None-Match", "\"other\", W/" + etag).statusCode(), "weak comparison, lists");
    assertEquals(304, get(uri, "If-None-Match", "*").statusCode());
    assertEquals(200, get(uri, "If-None-Match", "\"other\"").statusCode());
  }

  @Test
  void newKeysGiveANewEtagAndDocument() throws Exception {
    AtomicReference<KeySet> live = new AtomicReference<>(KeySet.of(TokenKey.generate("one", Algorithm.ES256)));
    KeySource source = live::get;
    URI uri = serve(JwksServlet.builder().keys(source).build());
    HttpResponse<String> first = get(uri);
    String etag = first.headers().firstValue("ETag").orElseThrow();
    live.set(live.get().with(TokenKey.generate("two", Algorithm.EDDSA)));
    HttpResponse<String> second = get(uri, "If-None-Match", etag);
    assertEquals(200, second.statusCode(), "the old ETag no longer matches");
    assertNotEquals(etag, second.headers().firstValue("ETag").orElseThrow());
    assertTrue(second.body().contains("\"kid\":\"two\""), second.body());
  }

  @Test
  void defaultMaxAgeIsFiveMinutes() throws Exception {
    URI uri = serve(JwksServlet.builder().keys(lifecycleKeys()).build());
    assertEquals("public, max-age=300", get(uri).headers().firstValue("Cache-Control").orElseThrow());
  }

  @Test
  void refusesToStartWhenAskedToPublishASecretKey() {
    for (Algorithm symmetric : new Algorithm[] {Algorithm.HS256, Algorithm.HS512, Algorithm.DIR_A256GCM}) {
      KeySet keys = KeySet.of(TokenKey.generate("signing", Algorithm.ES256), TokenKey.generate("shared", symmetric));
      IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> JwksServlet.builder().keys(keys).build(), symmetric.toString());
      assertTrue(e.getMessage().contains("'shared'"), e.getMessage());
      assertTrue(e.getMessage().contains("ES256"), "says what to do: " + e.getMessage());
    }
  }

  @Test
  void aSecretKeyArrivingLaterGets503WithoutDetailsNeverTheSecret() throws Exception {
    TokenKey secret = TokenKey.generate("shared", Algorithm.HS256);
    AtomicReference<KeySet> live = new AtomicReference<>(KeySet.of(TokenKey.generate("one", Algorithm.ES256)));
    KeySource source = live::get;
    URI uri = serve(JwksServlet.builder().keys(source).build());
    assertEquals(200, get(uri).statusCode());
    live.set(live.get().with(secret));
    HttpResponse<String> r = get(uri);
    assertEquals(503, r.statusCode());
    assertEquals("no-store", r.headers().firstValue("Cache-Control").orElseThrow());
    assertFalse(r.body().contains("shared"), r.body());
    assertFalse(r.body().contains("Exception"), r.body());
  }

  @Test
  void maxAgeIsValidated() {
    assertThrows(IllegalArgumentException.class, () -> JwksServlet.builder().maxAge(Duration.ofSeconds(-1)));
    assertThrows(IllegalArgumentException.class, () -> JwksServlet.builder().maxAge(Duration.ofMillis(1500)));
    assertThrows(IllegalArgumentException.class, () -> JwksServlet.builder().maxAge(Duration.ofDays(2)));
    assertThrows(IllegalStateException.class, () -> JwksServlet.builder().build());
  }

  @Test
  void onlyGetAndHead() throws Exception {
    URI uri = serve(JwksServlet.builder().keys(lifecycleKeys()).build());
    HttpResponse<String> post = HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofString("x")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(405, post.statusCode());
    HttpResponse<String> head = HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).method("HEAD", HttpRequest.BodyPublishers.noBody()).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, head.statusCode());
    assertTrue(head.headers().firstValue("ETag").isPresent());
  }
}
