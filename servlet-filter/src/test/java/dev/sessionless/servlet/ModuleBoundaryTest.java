package dev.sessionless.servlet;

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

/** Pins the public surface: one exported package; only core, servlet and JDK types in signatures (and the mapper option). */
class ModuleBoundaryTest {
  @Test
  void moduleExportsOnlyThePublicPackageAndRequiresCoreAndServletTransitively() throws IOException {
    try (InputStream in = Files.newInputStream(Path.of("target/classes/module-info.class"))) {
      ModuleDescriptor d = ModuleDescriptor.read(in);
      assertEquals("dev.sessionless.servlet", d.name());
      Set<String> exported = d.exports().stream().map(ModuleDescriptor.Exports::source).collect(Collectors.toSet());
      assertEquals(Set.of("dev.sessionless.servlet"), exported);
      Set<String> transitive = d.requires().stream()
          .filter(r -> r.modifiers().contains(ModuleDescriptor.Requires.Modifier.TRANSITIVE))
          .map(ModuleDescriptor.Requires::name).collect(Collectors.toSet());
      assertEquals(Set.of("dev.sessionless.core", "jakarta.servlet"), transitive);
      assertTrue(Files.isDirectory(Path.of("target/classes/dev/sessionless/servlet/internal")));
    }
  }

  @Test
  void publicSignaturesCarryNoInternalOrDependencyTypes() {
    for (Class<?> c : new Class<?>[] {SessionlessFilter.class, SessionlessFilterBuilder.class}) {
      for (Method m : c.getDeclaredMethods()) {
        if (!Modifier.isPublic(m.getModifiers())
            || (c == SessionlessFilterBuilder.class && m.getName().equals("objectMapper"))) {
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
    while (t.isArray()) {
      t = t.getComponentType();
    }
    String n = t.getName();
    return t.isPrimitive() || n.startsWith("java.") || n.startsWith("jakarta.servlet.")
        || (n.startsWith("dev.sessionless.") && !n.contains(".internal."));
  }
}
