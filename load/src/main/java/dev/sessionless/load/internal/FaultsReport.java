package dev.sessionless.load.internal;

import dev.sessionless.load.PhaseResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The words of a faults run, for a reader who has not seen the project before: what happened, a
 * side-by-side table of what each system lost (headings in words, columns aligned so it reads in
 * a terminal and is still a Markdown table), one sentence per system saying what it lost and why,
 * and what the columns count. The demo prints it; the faults report holds it too.
 */
public final class FaultsReport {
  private static final String[] HEADINGS = {"system", "journeys completed", "sessions lost", "carts lost",
      "requests failed", "largest cookie"};

  /** The longest line of running text, for a terminal. */
  private static final int WIDTH = 100;

  private FaultsReport() {}

  /** A system's name for people: {@code session-sticky} is "In-memory sessions (sticky)". */
  public static String name(String system) {
    if (Balancer.proxied(system)) {
      return name(Balancer.system(system)) + " via HAProxy";
    }
    return switch (system) {
      case "sessionless" -> "Sessionless";
      case Options.WEBFLUX -> "Sessionless on WebFlux";
      case "session-sticky" -> "In-memory sessions (sticky)";
      case "session-nonsticky" -> "In-memory sessions (round-robin)";
      case "spring-session-redis" -> "Spring Session + Redis";
      case Options.PADDED -> "In-memory sessions (sticky, padded cookie)";
      default -> system;
    };
  }

  /**
   * The faults section of a run's Markdown report: a heading, {@link #text}, and when each fault
   * hit each system.
   */
  public static String markdown(Map<String, Faults.Outcome<PhaseResult>> outcomes, Map<String, ShopWorkload> shops,
      Options options, int nodes) {
    StringBuilder md = new StringBuilder("## Faults under load: node " + Faults.NODE + " killed and restarted, key rotated\n\n")
        .append(text(outcomes, shops, options, nodes)).append("\nWhen the faults hit, in seconds from the start of each system's step:\n\n");
    outcomes.forEach((system, o) -> md.append("- ").append(system).append(": ")
        .append(String.join(", ", o.events().stream().map(Faults.Event::toString).toList())).append('\n'));
    return md.append('\n').toString();
  }

  /** The demo's first line: which systems it runs, side by side. */
  public static String intro(List<String> systems) {
    return wrap("The demo: " + String.join(", ", systems.stream().map(FaultsReport::name).toList())
        + ", side by side through the same node kill.", "").strip();
  }

  /** A duration as seconds for people: {@code 8 s}, {@code 2.5 s}. */
  public static String seconds(java.time.Duration d) {
    double s = d.toMillis() / 1000.0;
    return (s == Math.rint(s) ? String.valueOf((long) s) : String.format(Locale.ROOT, "%.1f", s)) + " s";
  }

  /**
   * What happened, the table, a sentence per system and what the columns count.
   *
   * @param outcomes per system, its step's result and the faults that hit it
   * @param shops per system, what its users counted
   * @param nodes the nodes per system
   */
  public static String text(Map<String, Faults.Outcome<PhaseResult>> outcomes, Map<String, ShopWorkload> shops,
      Options options, int nodes) {
    double measured = (options.step.toMillis() - options.warmup.toMillis()) / 1000.0;
    double from = options.warmup.toMillis() / 1000.0;
    StringBuilder t = new StringBuilder();
    boolean tokens = outcomes.keySet().stream().map(Balancer::system)
        .anyMatch(s -> s.equals("sessionless") || s.equals(Options.WEBFLUX));
    t.append(wrap(String.format(Locale.ROOT, "%d users per system shop for %s on %d %s nodes (a journey: browse, browse,"
        + " add three items, check out; %s). At %.1f s node %d is killed; at %.1f s a fresh one starts in its place, with"
        + " empty memory%s.", options.users, seconds(options.step), nodes,
        outcomes.keySet().stream().map(Balancer::system).anyMatch(Options.WEBFLUX::equals) ? "Jetty (or Reactor Netty)" : "Jetty", options.think.isZero()
            ? "no pause between requests" : "about " + options.think.toMillis() + " ms between requests",
        from + Faults.KILL_AT * measured, Faults.NODE, from + Faults.RESTART_AT * measured,
        tokens ? String.format(Locale.ROOT, "; at %.1f s Sessionless's key rotates"
            + " (its tokens: %s)", from + Faults.ROTATE_AT * measured, ReportText.tokens(options)) : ""), "")).append('\n');
    List<String[]> rows = new ArrayList<>();
    rows.add(HEADINGS);
    outcomes.forEach((system, o) -> {
      ShopWorkload shop = shops.get(system);
      rows.add(new String[] {name(system), String.valueOf(shop.journeysCompleted()), String.valueOf(shop.sessionsLost()),
          String.valueOf(shop.cartsLost()), String.valueOf(o.result().errors()), shop.maxCookieBytes() + " bytes"});
    });
    table(t, rows);
    t.append('\n');
    outcomes.forEach((system, o) -> t.append(wrap("- " + sentence(system, shops.get(system), options, nodes), "  ")));
    return t.append('\n').append(wrap("Journeys completed: checkouts that found every item the user had added. Sessions"
        + " lost: times a user found its session emptied. Carts lost: checkouts that found fewer items than added."
        + " Requests failed: no reply or an error reply, such as those cut off by the kill (each is sent again)."
        + " Largest cookie: the longest Cookie header a user sent.", "")).toString();
  }

  /** What {@code system} lost, and why. */
  static String sentence(String system, ShopWorkload shop, Options options, int nodes) {
    long sessions = shop.sessionsLost();
    long carts = shop.cartsLost();
    String lost = sessions + carts == 0 ? name(system) + " lost nothing"
        : name(system) + " lost " + count(sessions, "session") + " and " + count(carts, "cart");
    return switch (Balancer.system(system)) {
      case "sessionless", Options.WEBFLUX -> sessions + carts == 0
          ? lost + ": the session travels in its cookie, so any node serves any request, the restarted one included,"
              + " and tokens made with the old key are still read after the rotation. Its price: the longer cookie, and the"
              + " CPU to write and read it on every request."
          : !options.keepOldKey
              ? lost + ": the rotation dropped the old key at once (--rotation=drop-old), so every token made before"
                  + " it was refused. Exit status 3."
              : lost + ": it should lose none, so this is a bug (exit status 3); the full report has the details.";
      case "session-sticky", Options.PADDED -> sessions + carts == 0
          ? lost + ": no session kept in node " + Faults.NODE + "'s memory was needed again after it died."
          : Balancer.proxied(system) ? lost + ": the sessions of the users HAProxy kept on node " + Faults.NODE
              + " lived in its memory; when it died, HAProxy sent them to a node that had never seen them."
          : lost + ": the sessions of the " + onKilledNode(options.users, nodes) + " users kept on node " + Faults.NODE
              + " lived in its memory; when it died, the balancer moved them to a node that had never seen them.";
      case "session-nonsticky" -> lost + ", all through the run and not only at the kill: each request goes to the next"
          + " node, which does not hold the session the previous request wrote.";
      case "spring-session-redis" -> sessions + carts == 0
          ? lost + ": every node reads and writes the session in Redis, at the price of one more server to run and a"
              + " round trip to it on every request."
          : lost + ", though its sessions are in Redis; the full report has the details.";
      default -> lost + ".";
    };
  }

  /** The users that live on the killed node when each user {@code id} starts on node {@code id % nodes}. */
  static int onKilledNode(int users, int nodes) {
    int on = 0;
    for (int id = 0; id < users; id++) {
      on += id % nodes == Faults.NODE ? 1 : 0;
    }
    return on;
  }

  /** {@code text} broken at spaces into lines of at most {@link #WIDTH} characters, later lines after {@code indent}. */
  static String wrap(String text, String indent) {
    StringBuilder out = new StringBuilder();
    int col = 0;
    boolean lineEmpty = true;
    for (String word : text.split(" ")) {
      if (!lineEmpty && col + 1 + word.length() > WIDTH) {
        out.append('\n').append(indent);
        col = indent.length();
        lineEmpty = true;
      }
      if (!lineEmpty) {
        out.append(' ');
        col++;
      }
      out.append(word);
      col += word.length();
      lineEmpty = false;
    }
    return out.append('\n').toString();
  }

  private static String count(long n, String what) {
    return n + " " + what + (n == 1 ? "" : "s");
  }

  /** Rows as a Markdown table padded to align: the first row is the heading, numbers are right-aligned. */
  private static void table(StringBuilder t, List<String[]> rows) {
    int[] width = new int[HEADINGS.length];
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        width[i] = Math.max(width[i], row[i].length());
      }
    }
    for (int r = 0; r < rows.size(); r++) {
      String[] row = rows.get(r);
      for (int i = 0; i < row.length; i++) {
        String pad = " ".repeat(width[i] - row[i].length());
        t.append("| ").append(i == 0 || r == 0 ? row[i] + pad : pad + row[i]).append(' ');
      }
      t.append("|\n");
      if (r == 0) {
        for (int i = 0; i < width.length; i++) {
          t.append(i == 0 ? "|-" + "-".repeat(width[i]) + "-" : "|" + "-".repeat(width[i] + 1) + ":");
        }
        t.append("|\n");
      }
    }
  }
}
