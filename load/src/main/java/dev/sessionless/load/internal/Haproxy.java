package dev.sessionless.load.internal;

import dev.sessionless.load.LoadException;
import dev.sessionless.testing.ChildProcesses;
import dev.sessionless.testing.RedisServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A real HAProxy in front of a {@link Cluster}'s nodes, on a free loopback port, as users deploy
 * one: round-robin per request, or sticky by a cookie it inserts ({@code SERVERID}), with HTTP
 * health checks on each node's {@code /health} so a killed node leaves the rotation within about
 * half a second and a restarted one comes back as soon as it answers.
 *
 * <p>The configuration is written to a file (kept with the run's report, so a reader sees exactly
 * what ran) and HAProxy runs in the foreground as a child of this JVM, stopped by {@link #close()}
 * or, failing that, when the JVM exits.
 */
public final class Haproxy implements AutoCloseable {
  /** How to get HAProxy, for the message when it is missing. */
  public static final String INSTALL_HINT = "install it (Debian/Ubuntu: sudo apt-get install -y haproxy;"
      + " macOS: brew install haproxy), or pass --haproxy=/path/to/haproxy";
  /** Where Debian puts {@code haproxy}, which a user's {@code PATH} often leaves out. */
  private static final List<Path> SBIN = List.of(Path.of("/usr/sbin/haproxy"), Path.of("/usr/local/sbin/haproxy"));
  private static final Duration READY = Duration.ofSeconds(20);

  private final Process process;
  private final int port;
  private final Path config;
  private final Path log;
  private final Thread reaper;

  private Haproxy(Process process, int port, Path config, Path log) {
    this.process = process;
    this.port = port;
    this.config = config;
    this.log = log;
    this.reaper = new Thread(process::destroyForcibly, "load-haproxy-reaper");
    Runtime.getRuntime().addShutdownHook(reaper);
  }

  /**
   * The {@code haproxy} to run: {@code explicit} when given (empty if it is not an executable
   * file), else the first on the {@code PATH}, else Debian's {@code /usr/sbin/haproxy}.
   */
  public static Optional<Path> executable(Path explicit) {
    if (explicit != null) {
      return RedisServer.isExecutableFile(explicit) ? Optional.of(explicit) : Optional.empty();
    }
    List<Path> candidates = new ArrayList<>();
    String path = System.getenv("PATH");
    if (path != null) {
      for (String dir : path.split(java.io.File.pathSeparator)) {
        if (!dir.isEmpty()) {
          candidates.add(Path.of(dir, "haproxy"));
        }
      }
    }
    candidates.addAll(SBIN);
    return candidates.stream().filter(RedisServer::isExecutableFile).findFirst();
  }

  /** Why {@link #executable} found nothing, and what to do. */
  public static String missing(Path explicit) {
    return "haproxy not found" + (explicit == null ? " on the PATH nor in /usr/sbin" : " at " + explicit) + "; "
        + INSTALL_HINT;
  }

  /**
   * Starts HAProxy in front of {@code nodes}, its configuration written to {@code config}, and
   * waits until it serves {@code /health} through a node.
   *
   * @param explicit the {@code haproxy} to run, or {@code null} for {@link #executable}'s choice
   * @param sticky whether each user keeps to one node (by an inserted {@code SERVERID} cookie)
   *     rather than each request going to the next node
   * @throws LoadException {@link LoadException.Reason#SYSTEM_FAILED} when HAProxy is missing (the
   *     message says how to install it), or does not start (the message has its log's end)
   */
  public static Haproxy start(Path explicit, List<URI> nodes, boolean sticky, Path config) {
    Path exe = executable(explicit)
        .orElseThrow(() -> new LoadException(LoadException.Reason.SYSTEM_FAILED, missing(explicit)));
    LoadException last = null;
    for (int attempt = 0; attempt < 3; attempt++) { // a free port may be taken before HAProxy binds it
      try {
        return startOnce(exe, nodes, sticky, config, freePort());
      } catch (LoadException e) {
        last = e;
      }
    }
    throw last;
  }

  private static Haproxy startOnce(Path exe, List<URI> nodes, boolean sticky, Path config, int port) {
    Path log = config.resolveSibling(config.getFileName() + ".log");
    Process process;
    try {
      Files.createDirectories(config.toAbsolutePath().getParent());
      Files.writeString(config, HaproxyConfig.text(port, nodes, sticky), StandardCharsets.UTF_8);
      // -db: stay in the foreground, a child of this JVM; -f: only our file
      process = new ProcessBuilder(exe.toString(), "-db", "-f", config.toString())
          .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    } catch (IOException e) {
      throw new LoadException(LoadException.Reason.SYSTEM_FAILED, "could not run " + exe + ": " + e.getMessage()
          + "; " + INSTALL_HINT, e);
    }
    Haproxy proxy = new Haproxy(process, port, config, log);
    long deadline = System.nanoTime() + READY.toNanos();
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();
    while (System.nanoTime() < deadline && process.isAlive()) {
      if (proxy.healthy(client)) {
        return proxy;
      }
      try {
        Thread.sleep(20); // polling a child process until it serves; no clock to fake here
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    proxy.close();
    throw new LoadException(LoadException.Reason.SYSTEM_FAILED, exe + " did not serve /health on 127.0.0.1:" + port
        + " (config " + config + "); its log ends: " + proxy.logTail());
  }

  private boolean healthy(HttpClient client) {
    try {
      HttpResponse<Void> r = client.send(HttpRequest.newBuilder(uri().resolve("/health")).timeout(Duration.ofSeconds(1))
          .build(), HttpResponse.BodyHandlers.discarding());
      return r.statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private String logTail() {
    try {
      String s = Files.readString(log, StandardCharsets.UTF_8).strip();
      return s.isEmpty() ? "(empty)" : s.substring(Math.max(0, s.length() - 600));
    } catch (IOException e) {
      return "(unreadable: " + e.getMessage() + ")";
    }
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new LoadException(LoadException.Reason.SYSTEM_FAILED, "no free loopback port for haproxy: " + e, e);
    }
  }

  /** {@code http://127.0.0.1:port}: where every request of the run goes. */
  public URI uri() {
    return URI.create("http://127.0.0.1:" + port);
  }

  /** The configuration file it runs. */
  public Path config() {
    return config;
  }

  /** Stops HAProxy (TERM, then KILL after five seconds), waits for it, and removes its log if empty. */
  @Override
  public void close() {
    ChildProcesses.stop(process, reaper);
    try {
      if (Files.size(log) == 0) {
        Files.delete(log); // nothing to say: keep the results directory to the config alone
      }
    } catch (IOException e) {
      // a log left behind is harmless
    }
  }

}
