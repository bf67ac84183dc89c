package dev.sessionless.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sessionless.core.TokenCodec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Turns JMH JSON results of the matrix ({@code Matrix*Benchmark}) into {@code latest.md} (a
 * table per algorithm and operation, with Sessionless's ratio to the best peer and to the naive
 * path) and PNG charts (cost vs state size per library, one per algorithm and operation; token
 * bytes vs state size per algorithm), drawn with XChart.
 *
 * <p>Several result files can be given: a cell (algorithm, operation, library, state size) in a
 * later file replaces the same cell of an earlier one, so a re-run of some cells (say, one
 * algorithm after a fix) is laid over a whole run without rewriting it. {@code latest.md} names
 * every file it drew on, with its JMH settings and what it contributed.
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar dev.sessionless.benchmarks.MatrixReport \
 *     benchmarks/results/<run>.json [benchmarks/results/<later-run>.json ...] benchmarks/results
 * }</pre>
 */
public final class MatrixReport {
  static final String[] LIBRARIES = {"sessionless", "jose4j", "nimbus", "jjwt", "javaJwt", "naive"};
  static final String[] OPERATIONS = {"Decode", "DecodeRead", "Encode", "CacheHit"};
  static final List<String> ALGORITHMS = List.of("HS256", "dir", "dir+zip", "ES256", "EdDSA");
  static final int[] STATE_SIZES = {64, 256, 1024, 4096};

  private MatrixReport() {}

  /** {@code MatrixReport <results.json> [<later-results.json> ...] <output dir>}. */
  public static void main(String[] args) throws IOException {
    if (args.length < 2) {
      System.err.println("usage: MatrixReport <jmh-results.json> [<later-results.json> ...] <output-dir>");
      System.exit(2);
    }
    List<Path> inputs = new ArrayList<>();
    for (int i = 0; i < args.length - 1; i++) {
      inputs.add(Path.of(args[i]));
    }
    Path md = write(inputs, Path.of(args[args.length - 1]));
    System.out.println("wrote " + md + " and charts beside it");
  }

  /** One score: algorithm, operation, library, state size. */
  record Cell(String alg, String op, String lib, int state, double score, double alloc) {}

  /** Reads the matrix cells from a JMH JSON file; other benchmarks in it are ignored. */
  static List<Cell> read(Path json) throws IOException {
    List<Cell> cells = new ArrayList<>();
    for (JsonNode r : Fixtures.MAPPER.readTree(json.toFile())) {
      String[] parts = r.path("benchmark").asText().split("\\.");
      if (parts.length < 2 || !parts[parts.length - 2].startsWith("Matrix")) {
        continue;
      }
      String cls = parts[parts.length - 2];
      String method = parts[parts.length - 1];
      JsonNode p = r.path("params");
      String alg = switch (cls) {
        case "MatrixHs256Benchmark" -> "HS256";
        case "MatrixEs256Benchmark" -> "ES256";
        case "MatrixEdDsaBenchmark" -> "EdDSA";
        case "MatrixDirBenchmark" -> p.path("zip").asBoolean() ? "dir+zip" : "dir";
        default -> null;
      };
      String lib = null;
      String op = null;
      for (String l : LIBRARIES) {
        if (method.startsWith(l)) {
          lib = l;
          op = method.substring(l.length());
        }
      }
      if (alg == null || lib == null) {
        continue;
      }
      double alloc = r.path("secondaryMetrics").path("gc.alloc.rate.norm").path("score").asDouble(Double.NaN);
      cells.add(new Cell(alg, op, lib, p.path("stateBytes").asInt(),
          r.path("primaryMetric").path("score").asDouble(), alloc));
    }
    return cells;
  }

  /** Writes latest.md and the charts for one result file into {@code out}; returns the Markdown file. */
  static Path write(Path json, Path out) throws IOException {
    return write(List.of(json), out);
  }

  /**
   * Writes latest.md and the charts into {@code out} from {@code inputs}, a cell of a later file
   * replacing the same cell of an earlier one; returns the Markdown file.
   */
  static Path write(List<Path> inputs, Path out) throws IOException {
    Map<String, Cell> merged = new java.util.LinkedHashMap<>();
    StringBuilder sources = new StringBuilder();
    for (Path json : inputs) {
      List<Cell> read = read(json);
      read.forEach(c -> merged.put(c.alg() + "|" + c.op() + "|" + c.lib() + "|" + c.state(), c));
      sources.append(source(json, read));
    }
    List<Cell> cells = new ArrayList<>(merged.values());
    Files.createDirectories(out);
    StringBuilder md = new StringBuilder();
    String names = inputs.stream().map(p -> "`" + p.getFileName() + "`")
        .collect(java.util.stream.Collectors.joining(", then "));
    md.append("# Sizing matrix: ").append(inputs.get(inputs.size() - 1).getFileName()).append("\n\n")
        .append(sources).append('\n')
        .append("Generated by `MatrixReport` from ").append(names)
        .append(inputs.size() > 1 ? " (a cell of a later file replaces the same cell of an earlier one)" : "")
        .append(". µs/op, lower is better ")
        .append("(B/op from `-prof gc` in brackets when present). *best peer* is Sessionless ÷ the fastest peer ")
        .append("(jose4j, Nimbus, jjwt, java-jwt; named in brackets) in that cell; *naive* is Sessionless ÷ the naive JCA path. ")
        .append("A peer that cannot do a cell is absent (`-`). Figures from a loaded machine or a smoke run are noise.\n\n");
    List<String> algs = new ArrayList<>(ALGORITHMS);
    algs.removeIf(a -> cells.stream().noneMatch(c -> c.alg().equals(a)));
    for (String alg : algs) {
      for (String op : OPERATIONS) {
        Map<String, Map<Integer, Cell>> byLib = new TreeMap<>();
        cells.stream().filter(c -> c.alg().equals(alg) && c.op().equals(op))
            .forEach(c -> byLib.computeIfAbsent(c.lib(), k -> new TreeMap<>()).put(c.state(), c));
        if (byLib.isEmpty()) {
          continue;
        }
        table(md, alg, op, byLib);
        String png = fileName(alg) + "-" + op.toLowerCase(Locale.ROOT) + ".png";
        md.append("![").append(alg).append(' ').append(op).append("](").append(png).append(")\n\n");
        chart(out.resolve(png),
            alg + " " + op + ": cost vs state size", "µs/op", byLib);
      }
    }
    tokenSizes(md, out, algs);
    Path file = out.resolve("latest.md");
    Files.writeString(file, md, StandardCharsets.UTF_8);
    return file;
  }

  /** One line per input file: its JDK, its JMH settings per benchmark class, what it gave. */
  private static String source(Path json, List<Cell> cells) throws IOException {
    Map<String, String> settings = new TreeMap<>();
    String jdk = "?";
    for (JsonNode r : Fixtures.MAPPER.readTree(json.toFile())) {
      String[] parts = r.path("benchmark").asText().split("\\.");
      if (parts.length < 2 || !parts[parts.length - 2].startsWith("Matrix")) {
        continue;
      }
      jdk = r.path("jdkVersion").asText("?") + " (" + r.path("vmName").asText("?") + ")";
      settings.putIfAbsent(parts[parts.length - 2], r.path("forks").asInt() + " fork(s), "
          + r.path("warmupIterations").asInt() + " × " + r.path("warmupTime").asText("?") + " warm-up, "
          + r.path("measurementIterations").asInt() + " × " + r.path("measurementTime").asText("?")
          + " measured");
    }
    StringBuilder line = new StringBuilder("- `").append(json.getFileName()).append("`: JDK ").append(jdk)
        .append("; ").append(cells.size()).append(" cells");
    settings.forEach((cls, how) -> line.append("; ").append(cls).append(": ").append(how));
    return line.append(".\n").toString();
  }

  private static void table(StringBuilder md, String alg, String op, Map<String, Map<Integer, Cell>> byLib) {
    md.append("## ").append(alg).append(" — ").append(op).append("\n\n| state B |");
    List<String> libs = new ArrayList<>();
    for (String l : LIBRARIES) {
      if (byLib.containsKey(l)) {
        libs.add(l);
        md.append(' ').append(l).append(" |");
      }
    }
    md.append(" ÷ best peer | ÷ naive |\n|---:|");
    md.append("---:|".repeat(libs.size() + 2)).append('\n');
    for (int size : STATE_SIZES) {
      md.append("| ").append(size).append(" |");
      Cell best = null;
      for (String l : libs) {
        Cell c = byLib.get(l).get(size);
        md.append(' ').append(c == null ? "-" : fmt(c)).append(" |");
        if (c != null && !l.equals("sessionless") && !l.equals("naive") && (best == null || c.score() < best.score())) {
          best = c;
        }
      }
      Cell s = byLib.getOrDefault("sessionless", Map.of()).get(size);
      Cell n = byLib.getOrDefault("naive", Map.of()).get(size);
      md.append(' ').append(s == null || best == null ? "-" : ratio(s.score() / best.score()) + " (" + best.lib() + ")")
          .append(" |");
      md.append(' ').append(s == null || n == null ? "-" : ratio(s.score() / n.score())).append(" |\n");
    }
    md.append('\n');
  }

  private static String fmt(Cell c) {
    String s = String.format(Locale.ROOT, c.score() >= 10 ? "%.1f" : "%.3f", c.score());
    return Double.isNaN(c.alloc()) ? s : s + String.format(Locale.ROOT, " (%,.0f)", c.alloc());
  }

  private static String ratio(double r) {
    return String.format(Locale.ROOT, "%.2f×", r);
  }

  private static String fileName(String alg) {
    return alg.toLowerCase(Locale.ROOT).replace('+', '-');
  }

  private static void chart(Path png, String title, String yTitle, Map<String, Map<Integer, Cell>> byLib)
      throws IOException {
    XYChart chart = new XYChartBuilder().width(800).height(500).title(title)
        .xAxisTitle("state JSON bytes").yAxisTitle(yTitle).build();
    chart.getStyler().setXAxisLogarithmic(true);
    chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideE);
    for (String l : LIBRARIES) {
      Map<Integer, Cell> m = byLib.get(l);
      if (m == null) {
        continue;
      }
      double[] x = m.keySet().stream().mapToDouble(Integer::doubleValue).toArray();
      double[] y = m.values().stream().mapToDouble(Cell::score).toArray();
      chart.addSeries(l, x, y).setMarker(SeriesMarkers.CIRCLE);
    }
    BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
  }

  /** Token bytes per algorithm and state size: made here by Sessionless, as the matrix makes them. */
  private static void tokenSizes(StringBuilder md, Path out, List<String> algs) throws IOException {
    md.append("## Token size (bytes)\n\n| state B |");
    algs.forEach(a -> md.append(' ').append(a).append(" |"));
    md.append("\n|---:|").append("---:|".repeat(algs.size())).append('\n');
    XYChart chart = new XYChartBuilder().width(800).height(500).title("Token bytes vs state size")
        .xAxisTitle("state JSON bytes").yAxisTitle("token bytes").build();
    chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideE);
    Map<String, double[]> series = new java.util.LinkedHashMap<>();
    for (int i = 0; i < STATE_SIZES.length; i++) {
      md.append("| ").append(STATE_SIZES[i]).append(" |");
      for (String a : algs) {
        int bytes = tokenBytes(a, STATE_SIZES[i]);
        series.computeIfAbsent(a, k -> new double[STATE_SIZES.length])[i] = bytes;
        md.append(' ').append(bytes).append(" |");
      }
      md.append('\n');
    }
    double[] x = java.util.Arrays.stream(STATE_SIZES).asDoubleStream().toArray();
    series.forEach((a, y) -> chart.addSeries(a, x, y).setMarker(SeriesMarkers.CIRCLE));
    double[] limit = new double[x.length];
    java.util.Arrays.fill(limit, Sizing.BROWSER_COOKIE);
    chart.addSeries("4096 B cookie", x, limit).setMarker(SeriesMarkers.NONE);
    if (!series.isEmpty()) {
      BitmapEncoder.saveBitmap(chart, out.resolve("token-bytes.png").toString(), BitmapEncoder.BitmapFormat.PNG);
    }
    md.append("\nThe matrix's state (cart items and a filler string) is repetitive, so the dir+zip sizes are ")
        .append("a best case; run `Sizing` on a real session to know yours.\n\n![token bytes](token-bytes.png)\n");
  }

  /** The length of the token Sessionless makes for the matrix's state of {@code stateBytes}. */
  static int tokenBytes(String alg, int stateBytes) {
    TokenCodec codec = SizingBenchmark.codec(alg);
    return codec.encode(Fixtures.claims(Fixtures.stateOfJsonSize(stateBytes))).length();
  }
}
