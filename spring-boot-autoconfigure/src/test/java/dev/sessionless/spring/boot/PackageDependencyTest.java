package dev.sessionless.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The module's packages depend on each other one way only: a reader can take {@code
 * dev.sessionless.spring.boot} alone, then {@code .security} on top of it. A dependency is any
 * mention of another package of the module in a main source file (an import, a static import or a
 * fully qualified name, in code or Javadoc), read from the sources so that constants the compiler
 * copies still count.
 */
@Timeout(30)
class PackageDependencyTest {
  private static final String ROOT = "dev.sessionless.spring.boot";
  private static final Pattern PACKAGE = Pattern.compile("(?m)^package\\s+([\\w.]+)\\s*;");
  /** A name in the module's packages: its package is everything before the first capitalised part. */
  private static final Pattern MENTION = Pattern.compile("\\bdev\\.sessionless\\.spring\\.boot((?:\\.[a-z]\\w*)*)\\.[A-Z*]");

  @Test
  void packagesOfTheBootModuleDependOnEachOtherOneWayOnly() throws IOException {
    Map<String, Set<String>> uses = dependencies(Path.of("src/main/java"));
    assertTrue(uses.getOrDefault(ROOT + ".security", Set.of()).contains(ROOT),
        "the scan must see the security package's use of the root package: " + uses);
    List<String> cycles = new ArrayList<>();
    uses.forEach((from, tos) -> {
      for (String to : tos) {
        List<String> back = path(uses, to, from);
        if (back != null) {
          cycles.add(from + " -> " + String.join(" -> ", back));
        }
      }
    });
    assertEquals(List.of(), cycles, "package cycles (move the shared piece to the package both depend on)");
  }

  /** Each package of the module and the other packages of the module its sources mention. */
  static Map<String, Set<String>> dependencies(Path sources) throws IOException {
    assertTrue(Files.isDirectory(sources), sources.toAbsolutePath() + " (run from the module's directory)");
    Map<String, Set<String>> uses = new TreeMap<>();
    List<Path> files;
    try (Stream<Path> s = Files.walk(sources)) {
      files = s.filter(p -> p.toString().endsWith(".java")).toList();
    }
    for (Path file : files) {
      String text = Files.readString(file);
      Matcher p = PACKAGE.matcher(text);
      assertTrue(p.find(), file + " has no package line");
      String own = p.group(1);
      Set<String> mine = uses.computeIfAbsent(own, k -> new TreeSet<>());
      Matcher m = MENTION.matcher(text.substring(p.end()));
      while (m.find()) {
        String other = ROOT + m.group(1);
        if (!other.equals(own)) {
          mine.add(other);
        }
      }
    }
    return uses;
  }

  /** The packages on a way from {@code from} to {@code to}, both included, or null if there is none. */
  private static List<String> path(Map<String, Set<String>> uses, String from, String to) {
    Map<String, String> cameFrom = new TreeMap<>();
    Deque<String> todo = new ArrayDeque<>(List.of(from));
    cameFrom.put(from, from);
    while (!todo.isEmpty()) {
      String at = todo.poll();
      if (at.equals(to)) {
        List<String> way = new ArrayList<>();
        for (String s = to; ; s = cameFrom.get(s)) {
          way.add(0, s);
          if (s.equals(from)) {
            return way;
          }
        }
      }
      for (String next : uses.getOrDefault(at, Set.of())) {
        if (cameFrom.putIfAbsent(next, at) == null) {
          todo.add(next);
        }
      }
    }
    return null;
  }
}
