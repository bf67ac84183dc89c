package dev.sessionless.load.internal;

import dev.sessionless.load.UslFit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The peak profile's ratios of throughput per level, into the report: the ceiling baseline over
 * sticky sessions (when both ran), then Sessionless over each baseline that ran.
 */
public final class PeakRatios {
  private PeakRatios() {}

  /**
   * Appends the ratio tables to {@code md} and the ratios to {@code json}, for the systems in
   * {@code fits}; {@code padding} is the ceiling baseline's cookie length, for its caption.
   */
  public static void write(Map<String, UslFit> fits, int padding, StringBuilder md, Map<String, Object> json) {
    write(fits, padding, md, json, false);
  }

  /**
   * {@link #write(Map, int, StringBuilder, Map)} for the runs through HAProxy when {@code
   * proxied}: the headings say so and the JSON keys end in {@code ViaHaproxy}.
   */
  public static void write(Map<String, UslFit> fits, int padding, StringBuilder md, Map<String, Object> json,
      boolean proxied) {
    String via = proxied ? " via HAProxy" : "";
    String key = proxied ? "ViaHaproxy" : "";
    ceiling(fits, padding, md, json, via, key);
    UslFit a = fits.get("sessionless");
    if (a == null) {
      return;
    }
    for (String other : List.of("session-sticky", "spring-session-redis", Options.PADDED)) {
      UslFit b = fits.get(other);
      if (b == null) {
        continue;
      }
      md.append("## Sessionless vs ").append(other).append(via)
          .append(" (closed ramp, same run, interleaved)\n\n");
      List<Map<String, Object>> ratios = ratios(a, b, md);
      json.put(switch (other) {
        case "session-sticky" -> "sessionlessOverStickyThroughput";
        case Options.PADDED -> "sessionlessOverPaddedThroughput";
        default -> "sessionlessOverSpringSessionThroughput";
      } + key, ratios);
    }
  }

  /**
   * The padded baseline over plain sticky sessions: the most any session carried in a cookie of
   * that length reaches here, whatever its code. Written before Sessionless's own ratios.
   */
  private static void ceiling(Map<String, UslFit> fits, int padding, StringBuilder md, Map<String, Object> json,
      String via, String key) {
    UslFit padded = fits.get(Options.PADDED);
    UslFit sticky = fits.get("session-sticky");
    if (padded == null || sticky == null) {
      return;
    }
    md.append("## The ceiling: ").append(Options.PADDED).append(" vs session-sticky").append(via)
        .append(" (closed ramp, same run, interleaved)\n\n")
        .append("Sticky in-memory sessions that also carry an opaque ").append(padding)
        .append("-character cookie, renewed on every response, over the same without it: the most a session carried")
        .append(" in a cookie that long can reach on this machine, with no signing or parsing at all.\n\n");
    json.put("paddedOverStickyThroughput" + key, ratios(padded, sticky, md));
  }

  /**
   * {@code a}'s throughput over {@code b}'s at each level both measured, as a Markdown table
   * appended to {@code md} and as the list returned for the JSON.
   */
  static List<Map<String, Object>> ratios(UslFit a, UslFit b, StringBuilder md) {
    md.append("| users | ratio of throughput |\n|---|---|\n");
    List<Map<String, Object>> ratios = new ArrayList<>();
    for (int i = 0; i < Math.min(a.points().size(), b.points().size()); i++) {
      double ratio = a.points().get(i).throughput() / b.points().get(i).throughput();
      ratios.add(Map.of("users", a.points().get(i).concurrency(), "ratio", ratio));
      md.append(String.format(Locale.ROOT, "| %.0f | %.2f |%n", a.points().get(i).concurrency(), ratio));
    }
    md.append('\n');
    return ratios;
  }
}
