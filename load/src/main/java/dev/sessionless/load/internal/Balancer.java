package dev.sessionless.load.internal;

import dev.sessionless.load.LoadException;
import dev.sessionless.load.UslFit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Who routes the requests ({@code --balancer}): the load client itself, a real {@link Haproxy} in
 * front of each system's nodes, or both, one after the other. A system run through the proxy is
 * named {@code system}{@value #VIA} ("a run") wherever the report names it, so a reader sees both
 * rows side by side; the system's own name is {@link #system(String)}.
 */
public final class Balancer {
  /** The suffix of a run through HAProxy. */
  public static final String VIA = "@haproxy";

  /** {@code --balancer}: which routings run. */
  public enum Mode {
    /** The load client picks the node (round-robin, or sticky per user): no proxy. */
    CLIENT,
    /** Every request goes to a real HAProxy, which picks the node. */
    HAPROXY,
    /** Each system twice: client-routed, then through HAProxy. */
    BOTH;

    /** {@code client}, {@code haproxy} or {@code both}, as the option names it; empty for another word. */
    static Optional<Mode> parse(String s) {
      return switch (s) {
        case "client" -> Optional.of(CLIENT);
        case "haproxy" -> Optional.of(HAPROXY);
        case "both" -> Optional.of(BOTH);
        default -> Optional.empty();
      };
    }
  }

  private Balancer() {}

  /** The runs for {@code systems}: each system as itself, through the proxy, or both in turn. */
  public static List<String> runs(List<String> systems, Mode mode) {
    List<String> runs = new ArrayList<>();
    for (String s : systems) {
      if (mode != Mode.HAPROXY) {
        runs.add(s);
      }
      if (mode != Mode.CLIENT) {
        runs.add(s + VIA);
      }
    }
    return runs;
  }

  /** Whether {@code run} goes through HAProxy. */
  public static boolean proxied(String run) {
    return run.endsWith(VIA);
  }

  /** The system a run measures: {@code sessionless@haproxy} is {@code sessionless}. */
  public static String system(String run) {
    return proxied(run) ? run.substring(0, run.length() - VIA.length()) : run;
  }

  /** Whether the system keeps each user on one node (its balancer is sticky). */
  public static boolean sticky(String run) {
    String s = system(run);
    return s.equals("session-sticky") || s.equals(Options.PADDED);
  }

  /**
   * Stops the run before anything starts when it needs HAProxy and there is none.
   *
   * @throws LoadException {@code SYSTEM_FAILED}, saying how to install it
   */
  public static void requireHaproxy(Options options) {
    if (options.balancer != Mode.CLIENT && Haproxy.executable(options.haproxy).isEmpty()) {
      throw new LoadException(LoadException.Reason.SYSTEM_FAILED,
          "--balancer=" + options.balancer.name().toLowerCase(Locale.ROOT) + " needs HAProxy: "
              + Haproxy.missing(options.haproxy));
    }
  }

  /**
   * Starts the HAProxy of a proxied {@code run} in front of its {@code cluster}, sticky when the
   * system is, its configuration written beside the report named {@code base}: {@code
   * base-system-haproxy.cfg}.
   */
  public static Haproxy proxy(String run, Cluster cluster, Options options, String base) {
    return Haproxy.start(options.haproxy, cluster.nodes(), sticky(run),
        options.out.resolve(base + "-" + system(run) + "-haproxy.cfg"));
  }

  /** The report's line on how requests reached the nodes. */
  public static String routing(Mode mode) {
    String client = "routed by the load client (round-robin per request, or sticky per user; it is the balancer)";
    String proxy = "routed by a real HAProxy on loopback (`@haproxy`: round-robin, or sticky by its SERVERID cookie;"
        + " health checks every 200 ms), its configuration kept beside this report";
    return switch (mode) {
      case CLIENT -> client;
      case HAPROXY -> proxy;
      case BOTH -> "each system twice: " + client + ", and " + proxy;
    };
  }

  /** The fits of the client-routed runs, or of the proxied ones, keyed by their system's name. */
  public static Map<String, UslFit> fits(Map<String, UslFit> fits, boolean proxied) {
    Map<String, UslFit> out = new LinkedHashMap<>();
    fits.forEach((run, fit) -> {
      if (proxied(run) == proxied) {
        out.put(system(run), fit);
      }
    });
    return out;
  }

  /**
   * What the proxy costs each system: its throughput through HAProxy over its throughput routed by
   * the client, per level of the closed ramp, for every system that ran both ways.
   */
  public static void proxyCost(Map<String, UslFit> fits, StringBuilder md, Map<String, Object> json) {
    boolean first = true;
    for (Map.Entry<String, UslFit> e : fits.entrySet()) {
      String run = e.getKey();
      UslFit direct = fits.get(system(run));
      if (!proxied(run) || direct == null) {
        continue;
      }
      if (first) {
        first = false;
        md.append("## Through HAProxy vs routed by the client (closed ramp, same run, interleaved)\n\n")
            .append("Each system's throughput through a real HAProxy over its own throughput when the load client")
            .append(" picks the node: what the proxy costs it on this machine (the proxy shares the cores).\n\n");
      }
      md.append("### ").append(system(run)).append("\n\n");
      json.put(PROXY_COST + system(run), PeakRatios.ratios(e.getValue(), direct, md));
    }
  }

  /** The JSON key of a system's {@link #proxyCost} ratios is this and the system's name. */
  public static final String PROXY_COST = "haproxyOverClientThroughput:";
}
