package dev.sessionless.spring.boot;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.spring.boot.it.Containers;
import dev.sessionless.spring.boot.it.Instance;
import dev.sessionless.spring.boot.it.JwksApp;
import dev.sessionless.spring.boot.it.OrdersApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** Incomplete {@code sessionless.propagation.*} configuration fails the startup, naming the property to set. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PropagationStartupTest {
  private static final String R = "sessionless.propagation.receive.";
  private static final String S = "sessionless.propagation.send.";

  @TempDir
  Path dir;
  private Instance jwks;

  @BeforeAll
  void start() throws Exception {
    Path keys = Files.createTempFile("edge-keys", ".jwks");
    Files.writeString(keys, KeySet.of(TokenKey.generate("edge-1", Algorithm.ES256)).toJwksWithSecrets());
    jwks = Instance.start(JwksApp.class, Containers.only("tomcat"), "sessionless.enabled=false",
        "test.issuer-keys=" + keys);
  }

  @AfterAll
  void stop() {
    jwks.close();
  }

  private List<String> receiving(String... more) {
    List<String> p = new ArrayList<>(List.of(Containers.only("tomcat"), "sessionless.enabled=false",
        R + "audience=orders", R + "issuers[0].issuer=https://edge.example",
        R + "issuers[0].jwks-url=" + jwks.uri("/.well-known/jwks.json"), R + "issuers[0].allow-insecure-plain-http=true"));
    p.addAll(List.of(more));
    return p;
  }

  /** The startup failure's own message: the deepest one that is not Spring's wrapping, with its causes after it. */
  private static String failure(List<String> properties) {
    RuntimeException e = assertThrows(RuntimeException.class,
        () -> Instance.start(OrdersApp.class, properties.toArray(new String[0])).close());
    StringBuilder messages = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (!t.getClass().getName().startsWith("org.springframework.")) {
        messages.append(t.getMessage()).append(" | ");
      }
    }
    return messages.toString();
  }

  /** A key file with one ES256 signing key, for the sending side. */
  private Path es256KeyFile() throws java.io.IOException {
    return Files.writeString(dir.resolve("es.jwks"),
        KeySet.of(TokenKey.generate("es-1", Algorithm.ES256)).toJwksWithSecrets());
  }

  private static void assertNames(String message, String... parts) {
    for (String part : parts) {
      assertTrue(message.contains(part), "'" + part + "' not in: " + message);
    }
  }

  @Test
  void anAudienceWithoutIssuersNamesTheIssuerProperties() {
    assertNames(failure(List.of(Containers.only("tomcat"), "sessionless.enabled=false", R + "audience=orders")),
        R + "issuers[0].issuer", R + "issuers[0].jwks-url");
  }

  @Test
  void anIssuerWithoutAUrlNamesIt() {
    assertNames(failure(List.of(Containers.only("tomcat"), "sessionless.enabled=false", R + "audience=orders",
        R + "issuers[0].issuer=https://edge.example")), R + "issuers[0].jwks-url is required");
  }

  @Test
  void aPlainHttpJwksUrlNeedsExplicitPermission() {
    List<String> p = receiving();
    p.remove(R + "issuers[0].allow-insecure-plain-http=true");
    assertNames(failure(p), R + "issuers[0].allow-insecure-plain-http=true", "https");
  }

  @Test
  void anUnreachableJwksFailsTheStartupNamingTheUrlProperty() {
    List<String> p = receiving();
    p.remove(R + "issuers[0].jwks-url=" + jwks.uri("/.well-known/jwks.json"));
    p.add(R + "issuers[0].jwks-url=" + jwks.uri("/no-such-jwks.json"));
    assertNames(failure(p), "https://edge.example", R + "issuers[0].jwks-url", "reachable");
  }

  @Test
  void aReceivingOnlyServiceWithTheSessionPartOnSaysToTurnItOff() {
    List<String> p = receiving();
    p.remove("sessionless.enabled=false");
    assertNames(failure(p), "sessionless.keys.file", "sessionless.enabled=false");
  }

  @Test
  void aPublishedRevocationListWithoutSessionKeysNeedsItsKeysFile() throws Exception {
    Path list = Files.writeString(dir.resolve("revocations.jwt"), "");
    assertNames(failure(receiving("sessionless.revocation.type=published",
        "sessionless.revocation.published.file=" + list)), "sessionless.revocation.published.keys-file");
  }

  @Test
  void aFilterOrderAfterSpringSecurityIsRefused() {
    assertNames(failure(receiving(R + "filter-order=0")), R + "filter-order", "spring.security.filter.order");
  }

  @Test
  void emptyUrlPatternsAreRefused() {
    assertNames(failure(receiving(R + "url-patterns= ")), R + "url-patterns");
  }

  private List<String> sending(String... more) {
    List<String> p = new ArrayList<>(List.of(Containers.only("tomcat"), "sessionless.keys.ephemeral=true",
        S + "issuer=https://edge.example"));
    p.addAll(List.of(more));
    return p;
  }

  @Test
  void theSendingSideNeedsAKeyFile() {
    assertNames(failure(sending(S + "grants.orders=cart")), S + "keys-file is required");
  }

  @Test
  void aSymmetricSigningKeyIsRefused() throws Exception {
    Path keys = Files.writeString(dir.resolve("hs.jwks"),
        KeySet.of(TokenKey.generate("hs-1", Algorithm.HS256)).toJwksWithSecrets());
    assertNames(failure(sending(S + "keys-file=" + keys, S + "grants.orders=cart")), S + "keys-file", "symmetric",
        "hs-1", "ES256 or EdDSA");
  }

  @Test
  void anAlgorithmWithoutItsKeyIsRefused() throws Exception {
    Path keys = es256KeyFile();
    assertNames(failure(sending(S + "keys-file=" + keys, S + "algorithm=EdDSA", S + "grants.orders=cart")),
        S + "keys-file has no EdDSA key", S + "algorithm");
    assertNames(failure(sending(S + "keys-file=" + keys, S + "algorithm=HS256", S + "grants.orders=cart")),
        S + "algorithm is 'HS256'");
  }

  @Test
  void aTimeToLiveOutOfRangeNamesTheProperty() throws Exception {
    Path keys = es256KeyFile();
    assertNames(failure(sending(S + "keys-file=" + keys, S + "grants.orders=cart", S + "time-to-live=2h")),
        "sessionless.propagation.send", "time-to-live", "whole seconds from 1 s to 1 h");
  }

  @Test
  void aNegativeJwksMaxAgeNamesTheProperty() throws Exception {
    Path keys = es256KeyFile();
    assertNames(failure(sending(S + "keys-file=" + keys, S + "grants.orders=cart", S + "jwks.max-age=-5s")),
        S + "jwks.max-age");
  }

  @Test
  void noGrantNamesTheGrantsProperty() throws Exception {
    Path keys = es256KeyFile();
    assertNames(failure(sending(S + "keys-file=" + keys)), S + "grants.orders=cart,tenant");
  }
}
