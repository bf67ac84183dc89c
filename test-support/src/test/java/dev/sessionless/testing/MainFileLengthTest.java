package dev.sessionless.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Keeps the size limit on main code (issue 36): a main source file ({@code src/main/java} of any
 * module in the repository) over {@link #LIMIT} lines says why in a comment within its first
 * {@link #REASON_WITHIN} lines, in the words the long files already use ("Over 400 lines on
 * purpose: ...", "Over 400 lines because ...") or with "long because". It lives in
 * test-support because every module's build builds test-support first, so the check runs in
 * every full build whichever module changed.
 */
@Timeout(60)
class MainFileLengthTest {
  /** Lines a main source file may have without giving a reason. */
  static final int LIMIT = 400;
  /** How many main files may stand over the limit at all, each saying why (issue 36: at most five). */
  static final int MOST_OVER_LIMIT = 5;
  /** How near the top of the file the reason must stand. */
  static final int REASON_WITHIN = 30;
  /** A comment line that gives the reason. */
  static final Pattern REASON =
      Pattern.compile("^\\s*(//|/\\*|\\*).*\\b(over \\d+ lines|long because)", Pattern.CASE_INSENSITIVE);
  @Test
  void everyMainFileOverTheLimitSaysWhyNearItsTop() throws IOException {
    Map<String, List<String>> files = mainSources(repositoryRoot());
    assertTrue(files.containsKey("core/src/main/java/dev/sessionless/core/TokenCodec.java"),
        "the walk found no main sources: " + files.keySet());
    List<String> unexplained = new ArrayList<>();
    List<String> over = new ArrayList<>();
    files.forEach((path, lines) -> {
      if (lines.size() > LIMIT) {
        over.add(path + " (" + lines.size() + " lines)");
        if (!saysWhy(lines)) {
          unexplained.add(path + " (" + lines.size() + " lines)");
        }
      }
    });
    assertTrue(over.size() <= MOST_OVER_LIMIT, "more than " + MOST_OVER_LIMIT + " main files over " + LIMIT
        + " lines: split one along a seam: " + over);
    assertEquals(List.of(), unexplained, "main files over " + LIMIT + " lines with no comment in their first "
        + REASON_WITHIN + " lines saying why (\"Over 400 lines because ...\"): split them along a seam, or say why");
  }

  @Test
  void aReasonIsACommentNearTheTop() {
    List<String> opening = List.of("// Over 400 lines on purpose: the Javadoc of every option.", "package a;");
    List<String> block = List.of("package a;", "/**", " * This class is long because its table is.", " */");
    List<String> code = List.of("package a;", "String s = \"over 400 lines\";");
    assertTrue(saysWhy(opening));
    assertTrue(saysWhy(block));
    assertFalse(saysWhy(code), "a string is not a comment");
    List<String> late = new ArrayList<>(Collections.nCopies(REASON_WITHIN, "import a.B;"));
    late.add("// Over 400 lines because of its tables.");
    assertFalse(saysWhy(late), "too far from the top");
  }

  static boolean saysWhy(List<String> lines) {
    return lines.stream().limit(REASON_WITHIN).anyMatch(l -> REASON.matcher(l).find());
  }

  /**
   * The repository's root: the nearest directory at or above the working directory (a module's,
   * where Surefire runs) whose {@code pom.xml} lists the test-support module.
   */
  static Path repositoryRoot() throws IOException {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path pom = dir.resolve("pom.xml");
      if (Files.isRegularFile(pom) && Files.readString(pom).contains("<module>test-support</module>")) {
        return dir;
      }
    }
    throw new IllegalStateException("no root pom.xml (one listing <module>test-support</module>) at or above "
        + Path.of("").toAbsolutePath());
  }

  /** Every {@code src/main/java/**.java} below {@code root}, by path from the root, with its lines. */
  static Map<String, List<String>> mainSources(Path root) throws IOException {
    Map<String, List<String>> out = new TreeMap<>();
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
        String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
        boolean skip = !dir.equals(root) && (name.startsWith(".") || name.equals("target") || name.equals("node_modules"));
        return skip ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        String path = root.relativize(file).toString().replace('\\', '/');
        if (path.endsWith(".java") && path.contains("src/main/java/")) {
          out.put(path, Files.readAllLines(file, StandardCharsets.UTF_8));
        }
        return FileVisitResult.CONTINUE;
      }
    });
    return out;
  }
}
