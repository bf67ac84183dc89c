package dev.sessionless.session.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The engine stays below both adapters: its package goes only to them, and no container, Reactor
 * or Spring type is in its sources (the point of the module: one rule, usable by each).
 */
@Timeout(30)
class ModuleBoundaryTest {
  @Test
  void theInternalPackageGoesOnlyToTheTwoAdapters() throws IOException {
    try (InputStream in = Files.newInputStream(Path.of("target/classes/module-info.class"))) {
      ModuleDescriptor d = ModuleDescriptor.read(in);
      assertEquals("dev.sessionless.session", d.name());
      Set<String> exports = d.exports().stream()
          .map(e -> e.source() + " to " + new java.util.TreeSet<>(e.targets())).collect(Collectors.toSet());
      assertEquals(Set.of("dev.sessionless.session.internal to [dev.sessionless.servlet, dev.sessionless.webflux]"),
          exports);
      Set<String> requires = d.requires().stream().map(ModuleDescriptor.Requires::name)
          .filter(n -> !n.equals("java.base")).collect(Collectors.toSet());
      assertEquals(Set.of("dev.sessionless.core", "tools.jackson.core"), requires);
    }
  }

  @Test
  void noSourceNamesAContainerReactorOrSpringType() throws IOException {
    Path main = Path.of("src/main/java");
    List<String> offenders;
    try (Stream<Path> files = Files.walk(main)) {
      offenders = files.filter(p -> p.toString().endsWith(".java")).filter(p -> {
        try {
          return Files.readAllLines(p).stream().anyMatch(l -> l.startsWith("import ")
              && (l.contains(" jakarta.") || l.contains(" reactor.") || l.contains(" org.springframework.")
                  || l.contains(" io.netty.")));
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }).map(p -> main.relativize(p).toString()).collect(Collectors.toList());
    }
    assertFalse(offenders.size() > 0, "container types in the engine: " + offenders);
  }
}
