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
      Files.writeString(keys, KeySet.of(TokenKey.generate("k1", Algorithm.HS256)).toJwksWithSecrets());
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
}
