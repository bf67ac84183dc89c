package dev.sessionless.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.spring.boot.it.Containers;
import dev.sessionless.spring.boot.it.Instance;
import dev.sessionless.spring.boot.it.OrdersApp;
import dev.sessionless.spring.boot.it.PlainApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** What a failed startup prints, and what it leaves behind. */
@ExtendWith(OutputCaptureExtension.class)
@Timeout(120)
class FailedStartupTest {
  @TempDir
  Path dir;

  private String keyFile() throws Exception {
    Path keys = dir.resolve("keys.jwks");
    Files.writeString(keys, KeySet.of(TokenKey.generate("k1", Algorithm.DIR_A256GCM)).toJwksWithSecrets());
    return "sessionless.keys.file=" + keys;
  }

  /** The keyring's threads alive now: its refresh thread is named sessionless-keyring-*. */
  private static Set<Thread> keyringThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().startsWith("sessionless-keyring-")).collect(Collectors.toSet());
  }

  /** Waits (bounded by the test's timeout) for threads a close stops to end. */
  private static Set<Thread> leftAfter(Set<Thread> before) throws InterruptedException {
    Set<Thread> left = keyringThreads();
    left.removeAll(before);
    for (Thread t : left) {
      t.join(20_000);
    }
    left.removeIf(t -> !t.isAlive());
    return left;
  }

  @Test
  void afterAFailedStartupNoKeyringThreadOfItRemains() throws Exception {
    Set<Thread> before = keyringThreads();
    // The session keyring loads, then the filter's algorithm is refused.
    assertThrows(RuntimeException.class,
        () -> Instance.start(PlainApp.class, keyFile(), "sessionless.algorithm=BOGUS").close());
    assertEquals(Set.of(), leftAfter(before), "the session keyring is closed with the failed context");
    // The session keyring loads, then a receiving service's issuer has no keys to be had.
    assertThrows(RuntimeException.class, () -> Instance.start(OrdersApp.class, Containers.only("tomcat"), keyFile(),
        "sessionless.propagation.receive.audience=orders",
        "sessionless.propagation.receive.issuers[0].issuer=https://edge.example",
        "sessionless.propagation.receive.issuers[0].jwks-url=http://127.0.0.1:9/jwks.json",
        "sessionless.propagation.receive.issuers[0].allow-insecure-plain-http=true").close());
    assertEquals(Set.of(), leftAfter(before), "every keyring is closed with the failed context");
  }

  private static void assertFailureAnalysis(String log, String... names) {
    assertTrue(log.contains("APPLICATION FAILED TO START"), log);
    int at = log.lastIndexOf("APPLICATION FAILED TO START");
    String block = log.substring(at);
    assertTrue(block.contains("Description:") && block.contains("Action:"), block);
    for (String name : names) {
      assertTrue(block.contains(name), "'" + name + "' not in: " + block);
    }
  }

  @Test
  void startupFailuresOfTheKeysPrintBootsFailureAnalysisNamingThePropertyToSet(CapturedOutput output)
      throws Exception {
    assertThrows(RuntimeException.class, () -> Instance.start(PlainApp.class).close());
    assertFailureAnalysis(output.toString(), "sessionless.keys.file", "keyring.jar init --out");

    assertThrows(RuntimeException.class, () -> Instance.start(PlainApp.class,
        "sessionless.keys.file=" + dir.resolve("missing.jwks")).close());
    assertFailureAnalysis(output.toString(), "sessionless.keys.file", "does not exist", "init --out");

    Path encrypted = dir.resolve("keys.jwe");
    Files.writeString(encrypted, dev.sessionless.keyring.EncryptedJwks.encrypt(
        KeySet.of(TokenKey.generate("k1", Algorithm.DIR_A256GCM)), "a long enough password".toCharArray()));
    assertThrows(RuntimeException.class, () -> Instance.start(PlainApp.class, "sessionless.keys.file=" + encrypted)
        .close());
    assertFailureAnalysis(output.toString(), "is encrypted", "sessionless.keys.encrypted-file.path",
        "sessionless.keys.encrypted-file.password-variable");

    assertThrows(RuntimeException.class, () -> Instance.start(PlainApp.class,
        "sessionless.keys.encrypted-file.path=" + encrypted).close());
    assertFailureAnalysis(output.toString(), "sessionless.keys.encrypted-file.password-variable");
  }

  @Test
  void aSigningOnlyKeyFileWithoutSessionlessAlgorithmFailsStartupNamingTheProperty(CapturedOutput output)
      throws Exception {
    Path signing = dir.resolve("hs256.jwks");
    Files.writeString(signing, KeySet.of(TokenKey.generate("k1", Algorithm.HS256)).toJwksWithSecrets());
    Throwable e = assertThrows(RuntimeException.class,
        () -> Instance.start(PlainApp.class, "sessionless.keys.file=" + signing).close());
    SessionlessStartupException typed = null;
    for (Throwable t = e; t != null && typed == null; t = t.getCause()) {
      typed = t instanceof SessionlessStartupException ? (SessionlessStartupException) t : null;
    }
    assertTrue(typed != null, "a SessionlessStartupException: " + e);
    assertTrue(typed.description().contains("HS256") && typed.action().contains("sessionless.algorithm=HS256"),
        typed.getMessage());
    assertFailureAnalysis(output.toString(), "no A256GCM key", "keyring.jar init --out", "sessionless.algorithm=HS256");
    // The fix the message names: one setting, and the same key file starts.
    try (Instance app = Instance.start(PlainApp.class, "sessionless.keys.file=" + signing,
        "sessionless.algorithm=HS256")) {
      assertEquals(200, new dev.sessionless.spring.boot.it.Browser().get(app.uri("/count")).statusCode());
    }
  }

  @Test
  void aSessionValueOfATypeNotInAttributeTypesNamesTheBootPropertyAndSendsNoStackTrace(CapturedOutput output)
      throws Exception {
    try (Instance app = Instance.start(PlainApp.class, keyFile())) {
      var r = new dev.sessionless.spring.boot.it.Browser().get(app.uri("/note"));
      assertEquals(500, r.statusCode(), r.body());
      assertTrue(!r.body().contains("Exception") && !r.body().contains("at dev.") && !r.body().contains("Builder"),
          r.body());
      String log = output.toString();
      assertTrue(log.contains("sessionless.attribute-types=" + PlainApp.Note.class.getName()), log);
      assertTrue(!log.substring(log.indexOf("sessionless.attribute-types=")).contains("SessionlessFilter.Builder")
          || log.contains("which sessionless.attribute-types does not list"), log);
    }
    assertTrue(List.of(output.toString().split("\n")).stream()
        .filter(l -> l.contains("which sessionless.attribute-types does not list")).count() >= 1);
  }
}
