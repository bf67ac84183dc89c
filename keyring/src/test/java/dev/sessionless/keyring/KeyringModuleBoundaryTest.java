package dev.sessionless.keyring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Pins the keyring's public surface: one exported package, and no internal or dependency type in a public signature. */
class KeyringModuleBoundaryTest {
  @Test
  void moduleExportsOnlyThePublicPackage() throws IOException {
    try (InputStream in = Files.newInputStream(Path.of("target/classes/module-info.class"))) {
      ModuleDescriptor d = ModuleDescriptor.read(in);
      assertEquals("dev.sessionless.keyring", d.name());
      Set<String> exported = d.exports().stream().map(ModuleDescriptor.Exports::source).collect(Collectors.toSet());
      assertEquals(Set.of("dev.sessionless.keyring"), exported);
    }
  }

  @Test
  void publicSignaturesCarryOnlyJdkCoreAndKeyringTypes() {
    for (Class<?> c : new Class<?>[] {Keyring.class, KeyringBuilder.class, KeyringStatus.class,
        SourceStatus.class, KeyringException.class, KeyringException.Reason.class,
        EncryptedJwks.class, PemKeys.class}) {
      for (Method m : c.getDeclaredMethods()) {
        if (Modifier.isPublic(m.getModifiers())) {
          for (Class<?> p : m.getParameterTypes()) {
            assertTrue(isPublicApi(p), c.getSimpleName() + "." + m.getName() + " takes " + p.getName());
          }
          assertTrue(isPublicApi(m.getReturnType()), c.getSimpleName() + "." + m.getName() + " returns " + m.getReturnType());
        }
      }
      for (Constructor<?> k : c.getDeclaredConstructors()) {
        if (Modifier.isPublic(k.getModifiers())) {
          for (Class<?> p : k.getParameterTypes()) {
            assertTrue(isPublicApi(p), c.getSimpleName() + " constructor takes " + p.getName());
          }
        }
      }
    }
  }

  /**
   * Counting a verification or an encryption is the codec's business alone (through core's
   * internal KeyUsageHook): public callbacks would let any code holding the keyring make a key look
   * busy (delaying "safe to delete") or spend an AES-GCM key's budget until it stops encrypting.
   */
  @Test
  void noCodeButTheCodecCanCountAKeysUse() {
    Set<String> methods = java.util.Arrays.stream(Keyring.class.getMethods()).map(Method::getName)
        .collect(Collectors.toSet());
    assertTrue(!methods.contains("verifiedWith") && !methods.contains("signedWith"), methods.toString());
  }

  private static boolean isPublicApi(Class<?> t) {
    while (t.isArray()) {
      t = t.getComponentType();
    }
    String n = t.getName();
    return t.isPrimitive() || n.startsWith("java.")
        || ((n.startsWith("dev.sessionless.core.") || n.startsWith("dev.sessionless.keyring.")) && !n.contains(".internal."));
  }
}
