package dev.sessionless.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Reads the example blocks that README files share with tests: the lines between {@code
 * <!-- NAME:start -->} and {@code <!-- NAME:end -->} in Markdown, or between {@code //
 * NAME:start} and {@code // NAME:end} in Java, each line stripped, Markdown code fences dropped.
 */
public final class ReadmeBlocks {
  private ReadmeBlocks() {}

  /** The block {@code name} of a Markdown file, or an empty list when it has none. */
  public static List<String> markdown(Path file, String name) throws IOException {
    return block(file, "<!-- " + name).stream().filter(l -> !l.startsWith("```")).collect(Collectors.toList());
  }

  /** The block {@code name} of a Java source file, or an empty list when it has none. */
  public static List<String> java(Path file, String name) throws IOException {
    return block(file, "// " + name);
  }

  private static List<String> block(Path file, String marker) throws IOException {
    List<String> lines = Files.readAllLines(file);
    int start = -1;
    int end = -1;
    for (int i = 0; i < lines.size(); i++) {
      String l = lines.get(i).strip();
      if (l.startsWith(marker + ":start")) {
        start = i + 1;
      } else if (l.startsWith(marker + ":end")) {
        end = i;
      }
    }
    return start < 0 || end < start ? List.of()
        : lines.subList(start, end).stream().map(String::strip).collect(Collectors.toList());
  }
}
