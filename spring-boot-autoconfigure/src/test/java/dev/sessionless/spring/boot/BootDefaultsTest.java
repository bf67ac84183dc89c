package dev.sessionless.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.spring.boot.it.Browser;
import dev.sessionless.spring.boot.it.Containers;
import dev.sessionless.spring.boot.it.EdgeApp;
import dev.sessionless.spring.boot.it.Instance;
import dev.sessionless.spring.boot.it.PlainApp;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** The safe defaults a Boot application gets: said out loud, and unique per application. */
@ExtendWith(OutputCaptureExtension.class)
@Timeout(120)
class BootDefaultsTest {
  @TempDir
  Path dir;

  private String keyFile() throws Exception {
    Path keys = dir.resolve("keys.jwks");
    if (!Files.exists(keys)) {
      Files.writeString(keys, KeySet.of(TokenKey.generate("k1", Algorithm.DIR_A256GCM)).toJwksWithSecrets());
    }
    return "sessionless.keys.file=" + keys;
  }

  @Test
  void withoutRevocationTheStartupWarnsThatLogoutIsNotBindingAndNamesThePropertyThatChangesIt(CapturedOutput output)
      throws Exception {
    try (Instance app = Instance.start(PlainApp.class, keyFile())) {
      assertEquals(200, new Browser().get(app.uri("/count")).statusCode());
    }
    String log = output.toString();
    assertTrue(log.contains("WARN") && log.contains(SessionlessAutoConfiguration.UNBINDING_LOGOUT), log);
    assertTrue(SessionlessAutoConfiguration.UNBINDING_LOGOUT.contains("sessionless.revocation.type"));
    int before = log.length();
    try (Instance app = Instance.start(PlainApp.class, keyFile(), "sessionless.revocation.type=memory")) {
      assertEquals(200, new Browser().get(app.uri("/count")).statusCode());
    }
    assertFalse(output.toString().substring(before).contains("logout is not binding"), "with revocation: no warning");
  }

  @Test
  void theREADMEsStateTheLimitationInTheWarningsOwnWords() throws Exception {
    String sentence = SessionlessAutoConfiguration.UNBINDING_LOGOUT;
    for (Path readme : new Path[] {Path.of("README.md"), Path.of("../README.md")}) {
      String text = Files.readString(readme).replaceAll("(?m)^>[ ]?", "").replaceAll("\\s+", " ");
      assertTrue(text.contains(sentence), readme + " does not say: " + sentence);
    }
  }

  @Test
  void twoApplicationsSharingAKeyFileAndAnAudienceDoNotAcceptEachOthersSessionsByDefault() throws Exception {
    try (Instance shop = Instance.start(PlainApp.class, keyFile(), "spring.application.name=shop",
            "sessionless.audience=shared");
        Instance admin = Instance.start(PlainApp.class, keyFile(), "spring.application.name=admin",
            "sessionless.audience=shared")) {
      Browser browser = new Browser();
      assertEquals("1:1800", browser.get(shop.uri("/count")).body());
      assertEquals("2:1800", browser.get(shop.uri("/count")).body());
      // The same browser (cookies are per host, not per port) now visits the other application.
      assertEquals("1:1800", browser.get(admin.uri("/count")).body(),
          "admin's issuer is its own name, so shop's session is not admin's");
    }
  }

  @Test
  void aDefaultSessionIssuerThatWouldCollideWithAnInternalTokenIssuerFailsTheStartupNamingBothProperties()
      throws Exception {
    Path sendKeys = Files.writeString(dir.resolve("edge.jwks"),
        KeySet.of(TokenKey.generate("edge-1", Algorithm.ES256)).toJwksWithSecrets());
    RuntimeException e = assertThrows(RuntimeException.class, () -> Instance.start(EdgeApp.class,
        Containers.only("tomcat"), keyFile(), "spring.application.name=edge",
        "sessionless.propagation.send.issuer=edge", "sessionless.propagation.send.keys-file=" + sendKeys,
        "sessionless.propagation.send.grants.orders=cart").close());
    Throwable root = e;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    String message = root.getMessage();
    assertTrue(message.contains("sessionless.issuer") && message.contains("sessionless.propagation.send.issuer"),
        message);
    // Named on purpose, the same value is the application's choice.
    try (Instance edge = Instance.start(EdgeApp.class, Containers.only("tomcat"), keyFile(),
        "spring.application.name=edge", "sessionless.propagation.send.issuer=https://edge.internal",
        "sessionless.propagation.send.keys-file=" + sendKeys, "sessionless.propagation.send.grants.orders=cart")) {
      assertEquals(200, new Browser().get(edge.uri("/.well-known/jwks.json")).statusCode());
    }
  }

  @Test
  void bootSessionsAreEncryptedByDefaultAndJose4jDecryptsThem() throws Exception {
    byte[] secret = new byte[32];
    new java.security.SecureRandom().nextBytes(secret);
    Path keys = Files.writeString(dir.resolve("dir.jwks"),
        KeySet.of(TokenKey.secret("d1", Algorithm.DIR_A256GCM, secret)).toJwksWithSecrets());
    try (Instance app = Instance.start(PlainApp.class, "sessionless.keys.file=" + keys,
        "spring.application.name=shop-secret-name")) {
      Browser browser = new Browser();
      assertEquals("1:1800", browser.get(app.uri("/count")).body());
      assertEquals("2:1800", browser.get(app.uri("/count")).body(), "the encrypted token reads back");
      String token = browser.cookie("SESSIONLESS").orElseThrow();
      assertEquals(5, token.split("\\.", -1).length, "a compact JWE: " + token);
      String header = new String(java.util.Base64.getUrlDecoder().decode(token.substring(0, token.indexOf('.'))),
          java.nio.charset.StandardCharsets.UTF_8);
      for (String member : new String[] {"\"alg\":\"dir\"", "\"enc\":\"A256GCM\"", "\"zip\":\"DEF\"",
          "\"kid\":\"d1\""}) {
        assertTrue(header.contains(member), header);
      }
      for (String part : token.split("\\.")) {
        String decoded = new String(java.util.Base64.getUrlDecoder().decode(part),
            java.nio.charset.StandardCharsets.ISO_8859_1);
        assertFalse(decoded.contains("shop-secret-name"), "nothing of the claims shows: " + part);
      }
      org.jose4j.jwe.JsonWebEncryption jwe = new org.jose4j.jwe.JsonWebEncryption();
      jwe.setAlgorithmConstraints(new org.jose4j.jwa.AlgorithmConstraints(
          org.jose4j.jwa.AlgorithmConstraints.ConstraintType.PERMIT, "dir"));
      jwe.setCompactSerialization(token);
      jwe.setKey(new javax.crypto.spec.SecretKeySpec(secret, "AES"));
      String payload = jwe.getPayload();
      assertTrue(payload.contains("\"iss\":\"shop-secret-name\""), "jose4j inflates and decrypts it: " + payload);
    }
  }

  @Test
  void theEphemeralDevelopmentKeyFitsTheEncryptedDefault() throws Exception {
    try (Instance app = Instance.start(PlainApp.class, "sessionless.keys.ephemeral=true")) {
      Browser browser = new Browser();
      assertEquals("1:1800", browser.get(app.uri("/count")).body());
      assertEquals("2:1800", browser.get(app.uri("/count")).body());
      String token = browser.cookie("SESSIONLESS").orElseThrow();
      assertEquals(5, token.split("\\.", -1).length, "encrypted with the ephemeral A256GCM key: " + token);
    }
  }

  @Test
  void signedTokensAreOneSettingAwayAndSayOnceThatTheyAreReadable(CapturedOutput output) throws Exception {
    Path keys = Files.writeString(dir.resolve("hs.jwks"),
        KeySet.of(TokenKey.generate("h1", Algorithm.HS256)).toJwksWithSecrets());
    int before = output.toString().length();
    try (Instance app = Instance.start(PlainApp.class, "sessionless.keys.file=" + keys, "sessionless.algorithm=HS256",
        "logging.level.dev.sessionless=INFO")) {
      Browser browser = new Browser();
      assertEquals("1:1800", browser.get(app.uri("/count")).body());
      assertEquals("2:1800", browser.get(app.uri("/count")).body());
      String token = browser.cookie("SESSIONLESS").orElseThrow();
      assertEquals(3, token.split("\\.", -1).length, "a signed JWS: " + token);
      assertFalse(new String(java.util.Base64.getUrlDecoder().decode(token.substring(0, token.indexOf('.'))),
          java.nio.charset.StandardCharsets.UTF_8).contains("\"zip\""), "not compressed unless asked");
    }
    String log = output.toString().substring(before);
    assertEquals(1, log.split("session tokens are signed, not encrypted", -1).length - 1, log);
  }
}
