package dev.sessionless.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Pins the public surface: one exported API package with no dependency type in any public
 * signature, plus the two Jackson adapter packages (the only places a Jackson type appears).
 */
class ModuleBoundaryTest {
  @Test
  void moduleExportsOnlyThePublicPackage() throws IOException {
    try (InputStream in = Files.newInputStream(Path.of("target/classes/module-info.class"))) {
      ModuleDescriptor d = ModuleDescriptor.read(in);
      assertEquals("dev.sessionless.core", d.name());
      Set<String> exported = d.exports().stream().filter(e -> !e.isQualified())
          .map(ModuleDescriptor.Exports::source).collect(Collectors.toSet());
      assertEquals(Set.of("dev.sessionless.core", "dev.sessionless.core.jackson", "dev.sessionless.core.jackson2"), exported);
      Set<String> qualified = d.exports().stream().filter(ModuleDescriptor.Exports::isQualified)
          .map(e -> e.source() + " to " + new java.util.TreeSet<>(e.targets())).collect(Collectors.toSet());
      assertEquals(Set.of("dev.sessionless.core.internal to [dev.sessionless.devicebinding, dev.sessionless.gateway, dev.sessionless.keyring, dev.sessionless.propagation, dev.sessionless.redis, dev.sessionless.servlet, dev.sessionless.session, dev.sessionless.webflux]"), qualified,
          "internals go only to the sibling modules");
      assertTrue(Files.isDirectory(Path.of("target/classes/dev/sessionless/core/internal")), "internal package exists but is not exported");
    }
  }

  @Test
  void publicSignaturesCarryNoDependencyTypes() {
    for (Class<?> c : new Class<?>[] {TokenCodec.class, TokenCodec.Builder.class, SessionToken.class,
        Claims.class, Claims.Builder.class, TokenKey.class, KeySet.class, KeySource.class,
        TokenException.class, Algorithm.class, SessionlessListener.class, StateMapper.class,
        StateMapper.ReadLimits.class, SessionTooLargeException.class}) {
      for (Method m : c.getDeclaredMethods()) {
        if (!Modifier.isPublic(m.getModifiers())) {
          continue;
        }
        for (Class<?> p : m.getParameterTypes()) {
          assertTrue(isOurs(p), c.getSimpleName() + "." + m.getName() + " takes " + p.getName());
        }
        assertTrue(isOurs(m.getReturnType()), c.getSimpleName() + "." + m.getName() + " returns " + m.getReturnType());
      }
    }
  }

  /**
   * The usage callbacks (a key verified, a key signed) are the codec's own line to the key source
   * (core.internal's KeyUsageHook), not public SPI: on {@code KeySource} any code holding a keyring
   * could call them to make a key look busy or spend an AES-GCM key's encryption budget.
   */
  @Test
  void keySourceOffersNoUsageCallbacks() {
    Set<String> methods = java.util.Arrays.stream(KeySource.class.getMethods()).map(Method::getName)
        .collect(Collectors.toSet());
    assertEquals(Set.of("current", "unknownKeyId"), methods);
  }

  private static boolean isOurs(Class<?> t) {
    while (t.isArray()) {
      t = t.getComponentType();
    }
    String n = t.getName();
    return t.isPrimitive() || n.startsWith("java.") || (n.startsWith("dev.sessionless.core.") && !n.contains(".internal."));
  }
}
