package dev.sessionless.testing;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code redis-server} on loopback, for the tests and the load tool: started on a free
 * port with nothing persisted, stopped by {@link #close()} (and by a shutdown hook should the JVM
 * end first). The one launcher of the project: the test suites and the load tool's Spring
 * Session baseline both start Redis through it.
 *
 * <p><b>Which binary.</b> The system property {@value #PROPERTY} decides:
 * <ul>
 *   <li>{@code auto} (the default): {@code redis-server} from the {@code PATH} when there is one,
 *       otherwise the binary the build brings;</li>
 *   <li>{@code path}: {@code redis-server} from the {@code PATH}, or fail saying so;</li>
 *   <li>{@code embedded}: the binary the build brings, even where the {@code PATH} has one.</li>
 * </ul>
 * The binary the build brings is a real Redis server (6.2 for Linux and macOS on x86-64 and ARM),
 * shipped inside the {@code com.github.codemonstur:embedded-redis} jar: it is extracted once per
 * JVM into a private temporary directory and run as a process like the other. Only its binaries
 * are used, not its Java API. So a machine with only a JDK and Maven runs every Redis test,
 * and CI, which installs Debian's {@code redis-server}, runs them on that one while {@link
 * #startEmbedded()} keeps one test on the other.
 *
 * <p>Not thread-safe per instance; {@link #start} may be called from any thread.
 */
public final class RedisServer implements AutoCloseable {
  /** The system property choosing the binary: {@code auto} (default), {@code path} or {@code embedded}. */
  public static final String PROPERTY = "sessionless.redis.server";

  /** What to tell a user whose chosen binary is missing. */
  public static final String INSTALL_HINT = "install it (Debian/Ubuntu: apt-get install redis-server;"
      + " macOS: brew install redis), or leave -D" + PROPERTY + " unset to use the redis-server the build brings";

  private final Process process;
  private final Path executable;
  private final int port;
  private final Path dir;
  private final Thread hook;

  private RedisServer(Process process, Path executable, int port, Path dir) {
    this.process = process;
    this.executable = executable;
    this.port = port;
    this.dir = dir;
    this.hook = new Thread(process::destroyForcibly, "redis-server-stop");
    Runtime.getRuntime().addShutdownHook(hook);
  }

  /**
   * Starts the {@linkplain #chosenExecutable() chosen} server on a free loopback port and waits until it
   * answers {@code PING}.
   *
   * @throws IllegalStateException if the chosen binary is missing or does not come up (the message
   *     carries the end of its log)
   */
  public static RedisServer start() {
    return start(chosenExecutable());
  }

  /**
   * Starts the {@linkplain #chosenExecutable() chosen} server on this loopback port (to bring one back
   * where a stopped one was) and waits until it answers {@code PING}.
   *
   * @throws IllegalStateException if the chosen binary is missing or does not come up
   */
  public static RedisServer start(int port) {
    return startOnce(chosenExecutable(), port);
  }

  /**
   * Starts the binary the build brings, whatever {@value #PROPERTY} says: for the test that keeps
   * that binary exercised on machines whose {@code PATH} has another.
   *
   * @throws IllegalStateException if this platform has no such binary or it does not come up
   */
  public static RedisServer startEmbedded() {
    return start(Embedded.executable());
  }

  /**
   * Starts {@code executable} on a free loopback port and waits until it answers {@code PING}.
   *
   * @throws IllegalStateException if it cannot be run or does not come up
   */
  public static RedisServer start(Path executable) {
    IllegalStateException last = null;
    for (int attempt = 0; attempt < 3; attempt++) { // a free port may be taken before Redis binds it
      try {
        return startOnce(executable, freePort());
      } catch (IllegalStateException e) {
        last = e;
      }
    }
    throw last;
  }

  /**
   * The binary {@value #PROPERTY} chooses (see the class comment).
   *
   * @throws IllegalStateException if the property has another value, or names a binary that is missing
   */
  public static Path chosenExecutable() {
    String choice = System.getProperty(PROPERTY, "auto").strip().toLowerCase(Locale.ROOT);
    switch (choice) {
      case "auto", "" -> {
        return onPath().orElseGet(Embedded::executable);
      }
      case "path" -> {
        return onPath().orElseThrow(() -> new IllegalStateException(
            "-D" + PROPERTY + "=path but there is no redis-server on the PATH: " + INSTALL_HINT));
      }
      case "embedded" -> {
        return Embedded.executable();
      }
      default -> throw new IllegalStateException(
          "-D" + PROPERTY + " must be auto, path or embedded, got '" + choice + "'");
    }
  }

  /** {@code redis-server} from the {@code PATH}, if there is one. */
  public static Optional<Path> onPath() {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String d : path.split(File.pathSeparator)) {
      if (d.isEmpty()) {
        continue;
      }
      Path p = Path.of(d, "redis-server");
      if (isExecutableFile(p)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  /** The binary the build brings for this platform (extracted on first use). */
  public static Path embedded() {
    return Embedded.executable();
  }

  /** Whether {@code p} is a file this process may run. */
  public static boolean isExecutableFile(Path p) {
    return Files.isExecutable(p) && !Files.isDirectory(p);
  }

  private static RedisServer startOnce(Path executable, int port) {
    Path dir;
    try {
      dir = Files.createTempDirectory("redis-" + port + "-");
    } catch (IOException e) {
      throw new IllegalStateException("could not create a directory for redis-server: " + e, e);
    }
    Path log = dir.resolve("redis.log");
    List<String> command = List.of(executable.toString(),
        "--port", Integer.toString(port), "--bind", "127.0.0.1", "--protected-mode", "yes",
        "--save", "", "--appendonly", "no", "--daemonize", "no", "--dir", dir.toString());
    Process process;
    try {
      process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    } catch (IOException e) {
      deleteDir(dir);
      throw new IllegalStateException("could not run " + executable + ": " + e.getMessage() + "; " + INSTALL_HINT, e);
    }
    RedisServer server = new RedisServer(process, executable, port, dir);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (System.nanoTime() < deadline && process.isAlive()) {
      if (server.ping()) {
        return server;
      }
      try {
        Thread.sleep(20); // polling a child process until it listens; no clock to fake here
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    String tail = tail(log);
    server.close();
    throw new IllegalStateException(executable + " did not answer PING on 127.0.0.1:" + port
        + "; its log ends: " + tail);
  }

  static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException("no free loopback port for redis-server: " + e, e);
    }
  }

  /** Whether the server answers {@code PING} with {@code +PONG} now (bounded: at most ~1.5 s). */
  public boolean ping() {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
      s.setSoTimeout(1000);
      OutputStream out = s.getOutputStream();
      out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = s.getInputStream();
      byte[] reply = in.readNBytes(7);
      return new String(reply, StandardCharsets.US_ASCII).equals("+PONG\r\n");
    } catch (IOException e) {
      return false;
    }
  }

  /** The loopback port it listens on. */
  public int port() {
    return port;
  }

  /** {@code redis://127.0.0.1:port}. */
  public String uri() {
    return "redis://127.0.0.1:" + port;
  }

  /** The binary this server runs. */
  public Path executable() {
    return executable;
  }

  /** Stops the server (TERM, then KILL after five seconds), waits for it, and removes its directory. */
  @Override
  public void close() {
    ChildProcesses.stop(process, hook);
    deleteDir(dir);
  }

  @Override
  public String toString() {
    return "RedisServer[" + executable + " on 127.0.0.1:" + port + "]";
  }

  static void deleteDir(Path dir) {
    try (var files = Files.list(dir)) {
      for (Path f : files.toList()) {
        Files.deleteIfExists(f);
      }
      Files.deleteIfExists(dir);
    } catch (IOException e) {
      // a temporary directory left behind is harmless
    }
  }

  static String tail(Path log) {
    try {
      String s = Files.readString(log, StandardCharsets.UTF_8).strip();
      return s.isEmpty() ? "(empty)" : s.substring(Math.max(0, s.length() - 600));
    } catch (IOException e) {
      return "(unreadable: " + e.getMessage() + ")";
    }
  }

  /**
   * The {@code redis-server} binaries inside the {@code embedded-redis} jar, by platform. The
   * names are those of the version the root POM pins; a new version that renames them fails the
   * test that runs the embedded binary ({@code EmbeddedRedisTest} in the Redis module).
   */
  private static final class Embedded {
    private static Path extracted;

    private Embedded() {}

    static synchronized Path executable() {
      if (extracted == null) {
        extracted = extract(resource());
      }
      return extracted;
    }

    private static String resource() {
      String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
      String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
      boolean x64 = arch.equals("amd64") || arch.equals("x86_64");
      boolean arm64 = arch.equals("aarch64") || arch.equals("arm64");
      if (os.contains("linux") && x64) {
        return "redis-server-6.2.6-v5-linux-amd64";
      }
      if (os.contains("linux") && arm64) {
        return "redis-server-6.2.7-linux-arm64";
      }
      if (os.contains("mac") && x64) {
        return "redis-server-6.2.6-v5-darwin-amd64";
      }
      if (os.contains("mac") && arm64) {
        return "redis-server-6.2.6-v5-darwin-arm64";
      }
      // The jar's Windows binary is Redis 5.0, older than the 6.2 the revocation store needs.
      throw new IllegalStateException("the build brings no redis-server 6.2+ for " + os + "/" + arch
          + ": put one on the PATH (" + INSTALL_HINT + ")");
    }

    private static Path extract(String resource) {
      try (InputStream in = RedisServer.class.getClassLoader().getResourceAsStream(resource)) {
        if (in == null) {
          throw new IllegalStateException(resource + " is not on the class path: the com.github.codemonstur:"
              + "embedded-redis jar is missing or renamed its binaries; put redis-server on the PATH (" + INSTALL_HINT + ")");
        }
        // A private directory per JVM (owner-only on POSIX): no other user can swap the binary.
        Path dir = Files.createTempDirectory("sessionless-redis-bin-");
        Path exe = dir.resolve("redis-server");
        Files.copy(in, exe);
        if (!exe.toFile().setExecutable(true, true)) {
          throw new IllegalStateException("could not make " + exe + " executable");
        }
        dir.toFile().deleteOnExit(); // deleted after the file: deleteOnExit runs in reverse order
        exe.toFile().deleteOnExit();
        return exe;
      } catch (IOException e) {
        throw new IllegalStateException("could not extract " + resource + ": " + e, e);
      }
    }
  }
}
