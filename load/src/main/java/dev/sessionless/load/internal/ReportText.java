package dev.sessionless.load.internal;

import dev.sessionless.load.CapacityPlan;
import dev.sessionless.load.ClosedPhase;
import dev.sessionless.load.LatencyPoint;
import dev.sessionless.load.LoadException;
import dev.sessionless.load.PhaseResult;
import dev.sessionless.load.UslFit;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The words and tables of a load run's report, apart from the run itself. */
public final class ReportText {
  private ReportText() {}

  /**
   * Puts {@code system}'s USL fit and capacity plan into its JSON {@code result} and the
   * Markdown {@code md}: the fit's summary, and a plan for the target rate from its latency
   * points, or why none was made.
   *
   * @param fit the system's peak fit, or null when it ran no peak
   * @param points its latency-vs-rate points, or null when it ran no stress
   */
  public static void systemSummary(StringBuilder md, Map<String, Object> result, String system, UslFit fit,
      List<LatencyPoint> points, Options options) {
    if (fit != null) {
      result.put("usl", Map.of("lambda", fit.lambda(), "alpha", fit.alpha(), "beta", fit.beta(),
          "lambdaError", fit.lambdaError(), "alphaError", fit.alphaError(), "betaError", fit.betaError(),
          "rSquared", fit.rSquared(), "peakConcurrency", fit.peakConcurrency(), "peakThroughput", fit.peakThroughput(),
          "warnings", fit.warnings()));
      md.append("```\n").append(fit.summary()).append("```\n\n");
      if (!options.think.isZero()) {
        md.append(THINK_FIT_NOTE).append("\n\n");
      }
    }
    if (fit != null && points != null && !points.isEmpty() && !options.think.isZero()) {
      result.put("plan", Map.of("skipped", THINK_FIT_NOTE));
      md.append("Capacity plan: none (the ramp had think time; run peak with --think=0 for a plan)\n\n");
    } else if (fit != null && points != null && !points.isEmpty()) {
      try {
        CapacityPlan plan = CapacityPlan.plan(options.targetRate, options.p99LimitMillis, points, fit, 0.8, true);
        String caveat = planCaveat(system);
        result.put("plan", Map.of("machines", plan.machines(), "perMachineRate", plan.perMachineRate(),
            "assumptions", plan.assumptions(), "caveat", caveat));
        md.append("Capacity plan: ").append(plan.summary());
        if (!caveat.isEmpty()) {
          md.append("  - for this system: ").append(caveat).append('\n');
        }
        md.append('\n');
      } catch (LoadException e) {
        md.append("Capacity plan: none (").append(e.getMessage()).append(")\n\n");
      }
    }
  }

  /** Why a ramp with think time neither measures capacity nor plans from it. */
  public static final String THINK_FIT_NOTE = "The users thought between requests, so until the system saturates each"
      + " one sends at most one request per think time plus response time: this fit describes the offered"
      + " load as much as the system, and no capacity plan is made from it. Run peak with --think=0 to"
      + " measure capacity.";

  /**
   * Where the plan's general assumptions (machines share nothing) do not hold for a baseline: it
   * plans machines for the rate, not what the system loses or what it shares.
   */
  public static String planCaveat(String system) {
    return switch (system) {
      case "spring-session-redis" -> "its nodes share one Redis, so capacity does not add up linearly as"
          + " the plan assumes; Redis's own limit is not modelled, and it is one more thing to size and keep up";
      case "session-sticky", Options.PADDED -> "each session lives in one machine's memory: the spare machine keeps the rate"
          + " when a machine is lost, not that machine's sessions (the faults profile counts them)";
      case "session-nonsticky" -> "a user's requests reach machines that do not hold its session: it loses"
          + " sessions at any size (see its carts lost), so no number of machines makes it correct";
      default -> "";
    };
  }

  /** {@code profile}'s table of steps for one system, and what its users lost. */
  public static void table(StringBuilder md, String profile, List<PhaseResult> steps, ShopWorkload shop) {
    md.append("### ").append(profile).append("\n\n")
        .append("| step | target/s | achieved/s | p50 | p90 | p99 | p99.9 | max | errors | late | dropped | injector CPU | saturated |\n")
        .append("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (PhaseResult r : steps) {
      md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %d | %d | %d | %.2f | %s |%n",
          r.label(), Double.isNaN(r.targetRate()) ? "closed" : String.format(Locale.ROOT, "%.0f", r.targetRate()),
          rate(r.achievedRate()), ms(r.p50()), ms(r.p90()), ms(r.p99()), ms(r.p999()), ms(r.max()), r.errors(), r.late(),
          r.dropped(), r.injectorCpu(), r.saturated() ? "yes: " + String.join("; ", r.notes()) : "no"));
    }
    md.append(String.format(Locale.ROOT, "%nJourneys completed %d, carts lost %d, sessions lost %d, largest Cookie header"
        + " %d bytes.%n%n", shop.journeysCompleted(), shop.cartsLost(), shop.sessionsLost(), shop.maxCookieBytes()));
  }

  /** What the shop's own work per request is ({@code --app-cpu}), for the report's header. */
  public static String appCpuLine(Options options) {
    return "The shop spends " + options.appCpu.toNanos() / 1000 + " µs of CPU on every request as its own work"
        + " (`--app-cpu`), every system alike.";
  }

  /** Milliseconds with one decimal, or a dash for none. */
  public static String ms(double v) {
    return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.1f ms", v);
  }

  /** How the Sessionless nodes' tokens are made, for the report. */
  public static String tokens(Options options) {
    String alg = options.sessionlessAlgorithm.isEncrypting() ? "dir + A256GCM, encrypted" : "HS256, signed";
    return switch (options.sessionlessCompression) {
      case NONE -> alg;
      case DEFLATE -> alg + ", zip DEF";
      case DEFLATE_WITH_DICTIONARY -> alg + ", zip SLD1 (preset dictionary)";
    };
  }

  /** What the users' think time is, for the report's header. */
  public static String thinkLine(Options options) {
    return options.thinkDistribution == ClosedPhase.Think.FIXED
        ? "Closed steps: each user thinks exactly " + options.think.toMillis() + " ms between requests."
        : "Closed steps: each user thinks between requests for a random time, negative exponential with a mean of "
            + options.think.toMillis() + " ms, truncated at 10 times that (--think-distribution=exponential).";
  }

  /** A rate with three significant figures below 100 per second (a think-time step sends few). */
  public static String rate(double perSecond) {
    return String.format(Locale.ROOT, perSecond >= 100 ? "%.0f" : perSecond >= 10 ? "%.1f" : "%.2f", perSecond);
  }
}
