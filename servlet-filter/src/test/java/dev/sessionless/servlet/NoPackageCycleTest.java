package dev.sessionless.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The implementation package never refers back to the public one: dependencies point one way. */
class NoPackageCycleTest {
  private static final Pattern PUBLIC_TYPE = Pattern.compile("dev\\.sessionless\\.servlet\\.[A-Z]");

  @Test
  void internalPackageDoesNotUsePublicTypes() throws IOException {
    Path internal = Path.of("src/main/java/dev/sessionless/servlet/internal");
    List<String> offenders;
    try (Stream<Path> files = Files.list(internal)) {
      List<Path> sources = files.filter(p -> p.toString().endsWith(".java")).collect(Collectors.toList());
      assertFalse(sources.isEmpty(), "no sources under " + internal.toAbsolutePath());
      offenders = sources.stream().filter(p -> {
        try {
          return Files.readAllLines(p).stream()
              .anyMatch(l -> !l.trim().startsWith("*") && !l.contains("\"") && PUBLIC_TYPE.matcher(l).find());
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }).map(p -> p.getFileName().toString()).collect(Collectors.toList());
    }
    assertEquals(List.of(), offenders);
  }
}
