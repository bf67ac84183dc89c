package dev.sessionless.propagation.reactive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.ResponseEntity;
import org.springframework.web.reactive.function.client.WebClient;

/** The WebFlux JWKS endpoint on a real Reactor Netty server, read over loopback by a real WebClient. */
@Timeout(60)
class JwksWebHandlerTest {
  private LoopbackNetty server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  WebClient serve(JwksWebHandler handler) {
    server = new LoopbackNetty(e -> {
      e.getResponse().setStatusCode(org.springframework.http.HttpStatusCode.valueOf(418));
      return e.getResponse().setComplete();
    }, handler.at("/.well-known/jwks.json"));
    return LoopbackNetty.client(server.root);
  }

  static ResponseEntity<String> call(WebClient client, HttpMethod method, String path, String... headers) {
    return client.method(method).uri(path).headers(h -> {
      for (int i = 0; i < headers.length; i += 2) {
        h.set(headers[i], headers[i + 1]);
      }
    }).exchangeToMono(r -> r.toEntity(String.class)).block(Duration.ofSeconds(30));
  }

  static ResponseEntity<String> get(WebClient client, String... headers) {
    return call(client, HttpMethod.GET, "/.well-known/jwks.json", headers);
  }

  @Test
  void servesThePublicKeysAsTheServletDoesWithEtagCachingAnd304() {
    KeySet keys = KeySet.of(TokenKey.generate("signing", Algorithm.ES256), TokenKey.generate("next", Algorithm.EDDSA));
    WebClient client = serve(JwksWebHandler.builder().keys(keys).maxAge(Duration.ofSeconds(60)).build());
    ResponseEntity<String> r = get(client);
    assertEquals(200, r.getStatusCode().value());
    assertEquals("application/jwk-set+json", r.getHeaders().getFirst(HttpHeaders.CONTENT_TYPE));
    assertEquals("public, max-age=60", r.getHeaders().getFirst(HttpHeaders.CACHE_CONTROL));
    assertEquals(keys.toPublicJwks(), r.getBody());
    assertFalse(r.getBody().contains("\"d\""), "no private member");
    String etag = r.getHeaders().getETag();
    assertTrue(etag.startsWith("\"") && etag.length() > 40, etag);
    ResponseEntity<String> again = get(client, "If-None-Match", "W/" + etag);
    assertEquals(304, again.getStatusCode().value());
    assertNull(again.getBody());
    assertEquals(etag, again.getHeaders().getETag());
    assertEquals(200, get(client, "If-None-Match", "\"other\"").getStatusCode().value());
    assertEquals(418, call(client, HttpMethod.GET, "/other").getStatusCode().value(), "other paths pass on");
  }

  @Test
  void aRotationShowsUpAtTheNextRequestWithoutARestart() {
    TokenKey one = TokenKey.generate("one", Algorithm.ES256);
    AtomicReference<KeySet> live = new AtomicReference<>(KeySet.of(one));
    WebClient client = serve(JwksWebHandler.builder().keys(live::get).build());
    ResponseEntity<String> before = get(client);
    live.set(KeySet.of(one, TokenKey.generate("two", Algorithm.ES256)));
    ResponseEntity<String> after = get(client);
    assertTrue(after.getBody().contains("\"kid\":\"two\""), after.getBody());
    assertNotEquals(before.getHeaders().getETag(), after.getHeaders().getETag());
  }

  @Test
  void aSecretKeyIsRefusedAtBuildAndArrivingLaterGets503WithoutTheSecret() {
    TokenKey secret = TokenKey.generate("secret", Algorithm.HS256);
    assertThrows(IllegalStateException.class, () -> JwksWebHandler.builder().keys(KeySet.of(secret)).build());
    AtomicReference<KeySet> live = new AtomicReference<>(KeySet.of(TokenKey.generate("one", Algorithm.ES256)));
    WebClient client = serve(JwksWebHandler.builder().keys(live::get).build());
    live.set(KeySet.of(secret));
    ResponseEntity<String> r = get(client);
    assertEquals(503, r.getStatusCode().value());
    assertEquals("5", r.getHeaders().getFirst(HttpHeaders.RETRY_AFTER));
    assertEquals("the key set cannot be published now\n", r.getBody());
  }

  @Test
  void onlyGetAndHeadAndAValidatedConfiguration() {
    WebClient client = serve(JwksWebHandler.builder().keys(KeySet.of(TokenKey.generate("one", Algorithm.ES256))).build());
    ResponseEntity<String> post = call(client, HttpMethod.POST, "/.well-known/jwks.json");
    assertEquals(405, post.getStatusCode().value());
    assertEquals("GET, HEAD", post.getHeaders().getFirst(HttpHeaders.ALLOW));
    ResponseEntity<String> head = call(client, HttpMethod.HEAD, "/.well-known/jwks.json");
    assertEquals(200, head.getStatusCode().value());
    assertNull(head.getBody());
    assertThrows(IllegalArgumentException.class, () -> JwksWebHandler.builder().maxAge(Duration.ofMillis(1500)));
    assertThrows(IllegalStateException.class, () -> JwksWebHandler.builder().build());
    JwksWebHandler h = JwksWebHandler.builder().keys(KeySet.of(TokenKey.generate("one", Algorithm.ES256))).build();
    assertThrows(IllegalArgumentException.class, () -> h.at("/keys/*"));
  }
}
