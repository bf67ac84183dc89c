package dev.sessionless.propagation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Pins what the module-info says: four exported packages, the internal one only to the gRPC
 * module (which applies {@code Admission}'s lapsed-token rule instead of a copy); the servlet
 * API and the optional client libraries only {@code requires static}; no public field that can
 * change.
 */
@Timeout(60)
class ModuleBoundaryTest {
  static ModuleDescriptor descriptor() throws IOException {
    try (InputStream in = Files.newInputStream(Path.of("target/classes/module-info.class"))) {
      return ModuleDescriptor.read(in);
    }
  }

  @Test
  void moduleExportsTheApiTheTwoClientPackagesAndTheWebFluxSideButNotItsInternals() throws IOException {
    ModuleDescriptor d = descriptor();
    Set<String> exported = d.exports().stream().filter(e -> !e.isQualified())
        .map(ModuleDescriptor.Exports::source).collect(Collectors.toSet());
    assertEquals(Set.of("dev.sessionless.propagation", "dev.sessionless.propagation.spring",
        "dev.sessionless.propagation.okhttp", "dev.sessionless.propagation.reactive"), exported);
    assertEquals(Set.of("dev.sessionless.propagation.internal to [dev.sessionless.grpc]"),
        d.exports().stream().filter(ModuleDescriptor.Exports::isQualified).map(Object::toString)
            .collect(Collectors.toSet()), "the internals go to the gRPC module only");
    assertTrue(Files.isDirectory(Path.of("target/classes/dev/sessionless/propagation/internal")),
        "the internal package exists, exported to no one else");
  }

  @Test
  void optionalLibrariesAndTheServletApiAreRequiredStaticOnly() throws IOException {
    Set<String> optional = Set.of("jakarta.servlet", "spring.core", "spring.web", "spring.webflux", "reactor.core",
        "spring.security.core", "okhttp3", "kotlin.stdlib");
    Set<String> notStatic = new TreeSet<>();
    for (ModuleDescriptor.Requires r : descriptor().requires()) {
      if (optional.contains(r.name()) && !r.modifiers().contains(ModuleDescriptor.Requires.Modifier.STATIC)) {
        notStatic.add(r.name());
      }
    }
    assertEquals(Set.of(), notStatic);
  }

  @Test
  void noPublicTypeHasAPublicFieldThatCanChange() throws IOException {
    Path root = Path.of("target/classes");
    Set<String> mutable = new TreeSet<>();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path p : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".class")
          && !f.getFileName().toString().contains("-info"))::iterator) {
        String name = root.relativize(p).toString().replace('/', '.').replace(".class", "");
        Class<?> c;
        try {
          c = Class.forName(name, false, ModuleBoundaryTest.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
          continue; // a helper for an optional library not on this class path
        }
        for (Field f : c.getDeclaredFields()) {
          int m = f.getModifiers();
          // An enum constant is as immutable as its enum, whose own fields this loop checks too.
          if (Modifier.isPublic(m) && !f.isEnumConstant() && (!Modifier.isFinal(m) || !immutable(f.getType()))) {
            mutable.add(name + "." + f.getName());
          }
        }
      }
    }
    assertEquals(Set.of(), mutable);
  }

  private static boolean immutable(Class<?> t) {
    return t.isPrimitive() || t == String.class || t == java.time.Duration.class;
  }
}
