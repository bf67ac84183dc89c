package dev.sessionless.benchmarks;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * The sizing command: what one session costs in bytes on the wire and CPU on this machine.
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar dev.sessionless.benchmarks.Sizing \
 *     --session sample.json --alg HS256 --rate 2000 [--cookie SESSIONLESS] [--quick|--smoke]
 * }</pre>
 *
 * <p>It measures with an embedded JMH run ({@link SizingBenchmark} through the Runner API) with
 * the suite's own settings (one fork, 3 × 1 s warm-up, 5 × 1 s measurement; {@code --quick}
 * halves them, {@code --smoke} runs in-process once and claims no figures), and the same codec
 * settings as the matrix, so its figures are the matrix's for this session.
 */
public final class Sizing {
  /** The size limits a token meets on its way, by name, in bytes. */
  static final int BROWSER_COOKIE = 4096;
  static final int NGINX_HEADER_BUFFER = 1024;
  static final int NGINX_LARGE_HEADER_BUFFER = 8192;
  static final int NGINX_LARGE_HEADER_BUFFER_SMALL = 4096;
  static final int TOMCAT_JETTY_HEADERS = 8192;

  private Sizing() {}

  /** Runs the command; exits non-zero on bad arguments. */
  public static void main(String[] args) throws Exception {
    System.exit(run(args, System.out, System.err));
  }

  static int run(String[] args, PrintStream out, PrintStream err) throws RunnerException {
    Map<String, String> a = new LinkedHashMap<>();
    String mode = "full";
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--smoke", "--quick" -> mode = args[i].substring(2);
        case "--session", "--alg", "--rate", "--cookie" -> {
          if (i + 1 >= args.length) {
            err.println(args[i] + " needs a value");
            return 2;
          }
          a.put(args[i].substring(2), args[++i]);
        }
        default -> {
          err.println("unknown option " + args[i] + "\n" + usage());
          return 2;
        }
      }
    }
    if (!a.containsKey("session") || !a.containsKey("rate")) {
      err.println(usage());
      return 2;
    }
    Path session = Path.of(a.get("session"));
    if (!Files.isReadable(session)) {
      err.println("cannot read the session file " + session);
      return 2;
    }
    String alg = a.getOrDefault("alg", "HS256");
    double rate;
    String cookieName = a.getOrDefault("cookie", "SESSIONLESS");
    SizingBenchmark sample = new SizingBenchmark();
    try {
      rate = Double.parseDouble(a.get("rate"));
      if (!(rate > 0)) {
        throw new NumberFormatException("not positive");
      }
      sample.session = session.toString();
      sample.alg = alg;
      sample.setup();
    } catch (IllegalArgumentException e) {
      err.println(e.getMessage() + "\n" + usage());
      return 2;
    }

    int stateBytes = Fixtures.jsonLength(SizingBenchmark.readSession(session));
    int token = sample.token.length();
    int cookie = cookieName.length() + 1 + token; // Cookie: name=token
    int setCookie = cookie + "; Path=/; Secure; HttpOnly; SameSite=Lax".length();
    int header = "Authorization: Bearer ".length() + token;
    int cookieLine = "Cookie: ".length() + cookie; // the request header line the servers buffer
    out.printf(Locale.ROOT, "Sessionless sizing: %s, %s%n", session.getFileName(),
        alg.equalsIgnoreCase("dir+zip") ? "dir/A256GCM with zip DEF" : sample.codec.algorithm());
    out.printf(Locale.ROOT, "state              %d attributes, %d bytes of JSON%n",
        sample.claims.state().size(), stateBytes);
    out.printf(Locale.ROOT, "token              %d bytes%n", token);
    out.printf(Locale.ROOT, "as a cookie        %d bytes in the Cookie header (%s=...), %d in Set-Cookie with Path/Secure/HttpOnly/SameSite%n",
        cookie, cookieName, setCookie);
    out.printf(Locale.ROOT, "as a header        %d bytes (Authorization: Bearer ...)%n", header);
    out.println("limits:");
    limit(out, "browser cookie, name=value (RFC 6265: at least 4096)", cookie, BROWSER_COOKIE,
        "split into " + chunks(token, BROWSER_COOKIE - cookieName.length() - 3) + " cookies");
    limit(out, "nginx client_header_buffer_size 1k, Cookie line (then large buffers)", cookieLine, NGINX_HEADER_BUFFER,
        "served from large_client_header_buffers");
    limit(out, "nginx large_client_header_buffers 4k, Cookie line", cookieLine, NGINX_LARGE_HEADER_BUFFER_SMALL,
        "rejected (400) unless chunked or the buffer raised");
    limit(out, "nginx large_client_header_buffers 8k (default), Cookie line", cookieLine, NGINX_LARGE_HEADER_BUFFER,
        "rejected (400) unless chunked or the buffer raised");
    limit(out, "Tomcat maxHttpHeaderSize / Jetty requestHeaderSize 8 KiB (all headers; this one alone)", cookieLine,
        TOMCAT_JETTY_HEADERS, "rejected (400/431) unless the limit is raised");

    err.println("measuring with JMH (" + how(mode) + "); JMH's own output is silenced");
    Map<String, double[]> us = measure(session, alg, mode);
    out.printf(Locale.ROOT, "CPU per operation  (%s)%n", how(mode));
    for (Map.Entry<String, double[]> e : us.entrySet()) {
      double error = e.getValue()[1];
      out.printf(Locale.ROOT, "  %-12s %10.3f us%s%n", e.getKey(), e.getValue()[0],
          Double.isNaN(error) ? "" : String.format(Locale.ROOT, " ± %.3f (99.9%%)", error));
    }
    double read = us.get("decodeRead")[0];
    double write = us.get("encode")[0];
    out.printf(Locale.ROOT, "at %.0f requests/s %.3f cores reading the session on every request, %.3f cores if every request also writes it%n",
        rate, rate * read / 1e6, rate * (read + write) / 1e6);
    if (mode.equals("smoke")) {
      out.println("(smoke mode: the figures above are not measurements; run without --smoke)");
    }
    return 0;
  }

  private static void limit(PrintStream out, String name, int bytes, int max, String otherwise) {
    out.printf(Locale.ROOT, "  %-72s %s%n", name + " " + max + ":",
        bytes <= max ? "fits" : "too big by " + (bytes - max) + ": " + otherwise);
  }

  static int chunks(int tokenBytes, int perChunk) {
    return (tokenBytes + perChunk - 1) / perChunk;
  }

  private static String how(String mode) {
    return switch (mode) {
      case "smoke" -> "JMH Runner API, in-process, one 10 ms iteration: smoke only";
      case "quick" -> "JMH Runner API, 1 fork, 2 x 1 s warm-up, 3 x 1 s measured, average time";
      default -> "JMH Runner API, 1 fork, 3 x 1 s warm-up, 5 x 1 s measured, average time: the suite's settings";
    };
  }

  /** Score and error (µs/op) of decode, decodeRead and encode, in that order. */
  private static Map<String, double[]> measure(Path session, String alg, String mode) throws RunnerException {
    ChainedOptionsBuilder o = new OptionsBuilder()
        .include(SizingBenchmark.class.getName() + "\\.")
        .param("session", session.toAbsolutePath().toString())
        .param("alg", alg)
        .timeUnit(TimeUnit.MICROSECONDS)
        .verbosity(VerboseMode.SILENT)
        .shouldFailOnError(true);
    o = switch (mode) {
      case "smoke" -> o.forks(0).warmupIterations(0).measurementIterations(1)
          .measurementTime(TimeValue.milliseconds(10));
      case "quick" -> o.forks(1).warmupIterations(2).warmupTime(TimeValue.seconds(1))
          .measurementIterations(3).measurementTime(TimeValue.seconds(1));
      default -> o.forks(1).warmupIterations(3).warmupTime(TimeValue.seconds(1))
          .measurementIterations(5).measurementTime(TimeValue.seconds(1));
    };
    Collection<RunResult> results = new Runner(o.build()).run();
    Map<String, double[]> us = new LinkedHashMap<>();
    for (String op : new String[] {"decode", "decodeRead", "encode"}) {
      for (RunResult r : results) {
        if (r.getParams().getBenchmark().endsWith("." + op)) {
          us.put(op, new double[] {r.getPrimaryResult().getScore(), r.getPrimaryResult().getScoreError()});
        }
      }
      if (!us.containsKey(op)) {
        throw new IllegalStateException("JMH returned no result for " + op);
      }
    }
    return us;
  }

  private static String usage() {
    return "usage: Sizing --session <file.json|dump.properties> --rate <requests/s> "
        + "[--alg HS256|ES256|EdDSA|dir|dir+zip] [--cookie NAME] [--quick|--smoke]";
  }
}
