package dev.sessionless.keyring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The key-file classes together (an encrypted key set, a PEM key, a codec over both), and their
 * public surface. The README's one example is the live keyring's (LiveKeyringReadmeExampleTest).
 */
class KeyFilesReadmeExampleTest {
  @Test
  void anEncryptedKeySetAndAPemKeySignTogether() throws Exception {
    char[] password = "correct horse battery staple".toCharArray();
    Path pemFile = Path.of(KeyFilesReadmeExampleTest.class.getResource("/pem/ec-p256-pkcs8.pem").toURI());
    KeySet keys = KeySet.of(TokenKey.generate("2026-11", Algorithm.ES256));
    String jwe = EncryptedJwks.encrypt(keys, password);      // PBES2-HS512+A256KW, A256GCM
    KeySet back = EncryptedJwks.decrypt(jwe, password);      // or KeyringException with a reason
    TokenKey fromPem = PemKeys.read("pem-2026", pemFile)     // an OpenSSL P-256 key: ES256
        .withLifecycle(null, Instant.parse("2026-01-01T00:00:00Z"), null, null);
    TokenCodec codec = TokenCodec.builder().keys(back.with(fromPem)).algorithm(Algorithm.ES256)
        .issuer("https://shop.example").audience("shop").timeToLive(Duration.ofMinutes(30))
        .build();
    assertTrue(EncryptedJwks.isEncrypted(jwe));
    assertTrue(keys.keys().get(0).sameAs(back.key("2026-11").orElseThrow()));
    String token = codec.encode(Claims.builder().build());
    assertEquals("pem-2026", codec.decode(token).keyId(), "the PEM key activated last, so it signs");
  }

  @Test
  void keyFileClassesExposeNoDependencyTypes() {
    for (Class<?> c : new Class<?>[] {EncryptedJwks.class, PemKeys.class}) {
      for (Method m : c.getDeclaredMethods()) {
        if (!Modifier.isPublic(m.getModifiers())) {
          continue;
        }
        for (Class<?> p : m.getParameterTypes()) {
          assertTrue(isAllowed(p), c.getSimpleName() + "." + m.getName() + " takes " + p.getName());
        }
        assertTrue(isAllowed(m.getReturnType()), c.getSimpleName() + "." + m.getName() + " returns " + m.getReturnType());
      }
    }
  }

  private static boolean isAllowed(Class<?> t) {
    Class<?> c = t.isArray() ? t.getComponentType() : t;
    String n = c.getName();
    return c.isPrimitive() || n.startsWith("java.") || n.startsWith("dev.sessionless.core.")
        || n.startsWith("dev.sessionless.keyring.");
  }
}
