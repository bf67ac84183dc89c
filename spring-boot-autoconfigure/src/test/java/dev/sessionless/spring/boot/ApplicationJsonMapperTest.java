package dev.sessionless.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.StateMapper;
import dev.sessionless.core.TokenKey;
import dev.sessionless.core.jackson.JacksonStateMapper;
import dev.sessionless.spring.boot.it.Browser;
import dev.sessionless.spring.boot.it.Instance;
import dev.sessionless.spring.boot.it.JsonApp;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Session attributes are written with the application's own Jackson 3 {@code JsonMapper} (Boot's
 * {@code spring.jackson.*} configuration reaches them), over real HTTP.
 */
class ApplicationJsonMapperTest {
  @TempDir
  Path dir;

  private String[] properties(String... more) throws Exception {
    Path keys = dir.resolve("keys.jwks");
    Files.writeString(keys, KeySet.of(TokenKey.secret("k1", Algorithm.DIR_A256GCM, SECRET)).toJwksWithSecrets());
    String[] all = new String[more.length + 2];
    all[0] = "sessionless.keys.file=" + keys;
    all[1] = "sessionless.attribute-types=" + JsonApp.Preference.class.getName();
    System.arraycopy(more, 0, all, 2, more.length);
    return all;
  }

  /** The key file's A256GCM secret, so that the test can decrypt what the browser holds. */
  private static final byte[] SECRET = new byte[32];

  static {
    new java.security.SecureRandom().nextBytes(SECRET);
  }

  /** The JSON payload of the session token the browser holds, decrypted (by jose4j). */
  private static String payload(Browser browser) throws Exception {
    org.jose4j.jwe.JsonWebEncryption jwe = new org.jose4j.jwe.JsonWebEncryption();
    jwe.setAlgorithmConstraints(new org.jose4j.jwa.AlgorithmConstraints(
        org.jose4j.jwa.AlgorithmConstraints.ConstraintType.PERMIT, "dir"));
    jwe.setCompactSerialization(browser.cookie("SESSIONLESS").orElseThrow());
    jwe.setKey(new javax.crypto.spec.SecretKeySpec(SECRET, "AES"));
    return jwe.getPayload();
  }

  @Test
  void theApplicationsNamingStrategyReachesASessionAttributesJson() throws Exception {
    try (Instance app = Instance.start(JsonApp.class,
        properties("spring.jackson.property-naming-strategy=SNAKE_CASE"))) {
      assertInstanceOf(JacksonStateMapper.class, app.context.getBean(StateMapper.class));
      Browser browser = new Browser();
      assertEquals("ok", browser.get(app.uri("/prefer?name=Ada")).body());
      String json = payload(browser);
      assertTrue(json.contains("\"display_name\":\"Ada\""), json);
      assertTrue(json.contains("\"page_size\":20"), json);
      assertEquals("Ada/20", browser.get(app.uri("/preference")).body(), "and it reads back the same way");
    }
  }

  @Test
  void withoutSuchConfigurationAttributesKeepTheirPropertyNames() throws Exception {
    try (Instance app = Instance.start(JsonApp.class, properties())) {
      Browser browser = new Browser();
      browser.get(app.uri("/prefer?name=Ada"));
      String json = payload(browser);
      assertTrue(json.contains("\"displayName\":\"Ada\""), json);
      assertFalse(json.contains("display_name"), json);
      assertEquals("Ada/20", browser.get(app.uri("/preference")).body());
    }
  }
}
