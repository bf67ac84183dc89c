package dev.sessionless.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Keeps this module's README runnable: every demo it names with {@code -Ddemo=} is a class here
 * with a {@code main}, and this module's {@code run-demo} profile runs the class that property names.
 */
class ReadmeDemosTest {
  @Test
  void everyDemoTheReadmeNamesIsAClassWithAMainThatTheRunDemoProfileRuns() throws Exception {
    String readme = Files.readString(Path.of("README.md"));
    Set<String> named = new LinkedHashSet<>();
    Matcher option = Pattern.compile("-Ddemo=(\\w+)").matcher(readme);
    while (option.find()) {
      named.add(option.group(1));
    }
    Matcher row = Pattern.compile("(?m)^\\| `(\\w+Demo)` \\|").matcher(readme);
    while (row.find()) {
      named.add(row.group(1));
    }
    assertEquals(Set.of("ClusterDemo", "CoreDemo", "PropagationDemo"), named, "the demos the README names");
    for (String demo : named) {
      Method main = Class.forName("dev.sessionless.examples." + demo).getMethod("main", String[].class);
      assertTrue(Modifier.isStatic(main.getModifiers()) && Modifier.isPublic(main.getModifiers()), demo);
    }
    assertTrue(pom().contains("<mainClass>dev.sessionless.examples.${demo}</mainClass>"),
        "the run-demo profile runs the class -Ddemo names");
  }

  private static String pom() throws IOException {
    return Files.readString(Path.of("pom.xml"));
  }
}
