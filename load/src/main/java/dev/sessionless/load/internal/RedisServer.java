package dev.sessionless.load.internal;

import dev.sessionless.load.LoadException;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code redis-server} on loopback, started on a free port with nothing persisted and
 * stopped by {@link #close()} (and by a shutdown hook, should the JVM end first). The load tool's
 * Spring Session system keeps its sessions here.
 */
public final class RedisServer implements AutoCloseable {
  /** What to tell a user whose machine has no {@code redis-server}. */
  public static final String INSTALL_HINT = "install it (Debian/Ubuntu: apt-get install redis-server;"
      + " macOS: brew install redis) or pass --redis-server=/path/to/redis-server";

  private final Process process;
  private final int port;
  private final Path dir;
  private final Thread hook;

  private RedisServer(Process process, int port, Path dir) {
    this.process = process;
    this.port = port;
    this.dir = dir;
    this.hook = new Thread(process::destroyForcibly, "redis-server-stop");
    Runtime.getRuntime().addShutdownHook(hook);
  }

  /**
   * Finds {@code redis-server}: the given path when not {@code null}, otherwise on the
   * {@code PATH}.
   *
   * @return the executable, or empty when there is none
   */
  public static Optional<Path> find(String explicit) {
    if (explicit != null) {
      Path p = Path.of(explicit);
      return Files.isExecutable(p) && !Files.isDirectory(p) ? Optional.of(p) : Optional.empty();
    }
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String dir : path.split(java.io.File.pathSeparator)) {
      if (dir.isEmpty()) {
        continue;
      }
      Path p = Path.of(dir, "redis-server");
      if (Files.isExecutable(p) && !Files.isDirectory(p)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  /**
   * Starts {@code executable} on a free loopback port and waits until it answers {@code PING}.
   *
   * @throws LoadException {@link LoadException.Reason#SYSTEM_FAILED} when it does not start
   *     (the message carries the end of its log)
   */
  public static RedisServer start(Path executable) {
    LoadException last = null;
    for (int attempt = 0; attempt < 3; attempt++) { // a free port may be taken before Redis binds it
      try {
        return startOnce(executable, freePort());
      } catch (LoadException e) {
        last = e;
      }
    }
    throw last;
  }

  private static RedisServer startOnce(Path executable, int port) {
    Path dir;
    try {
      dir = Files.createTempDirectory("load-redis");
    } catch (IOException e) {
      throw new LoadException(LoadException.Reason.SYSTEM_FAILED, "could not create a directory for redis-server: " + e, e);
    }
    Path log = dir.resolve("redis.log");
    List<String> command = new ArrayList<>(List.of(executable.toString(),
        "--port", Integer.toString(port), "--bind", "127.0.0.1", "--protected-mode", "yes",
        "--save", "", "--appendonly", "no", "--daemonize", "no", "--dir", dir.toString()));
    Process process;
    try {
      process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    } catch (IOException e) {
      throw new LoadException(LoadException.Reason.SYSTEM_FAILED,
          "could not run " + executable + ": " + e.getMessage() + "; " + INSTALL_HINT, e);
    }
    RedisServer server = new RedisServer(process, port, dir);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        break;
      }
      if (server.ping()) {
        return server;
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    String tail = tail(log);
    server.close();
    throw new LoadException(LoadException.Reason.SYSTEM_FAILED,
        "redis-server did not answer PING on 127.0.0.1:" + port + "; its log ends: " + tail);
  }

  /** The port it listens on, on 127.0.0.1. */
  public int port() {
    return port;
  }

  /** Whether the server answers {@code PING} with {@code +PONG} now. */
  public boolean ping() {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
      s.setSoTimeout(1000);
      OutputStream out = s.getOutputStream();
      out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = s.getInputStream();
      byte[] reply = new byte[7];
      int n = 0;
      while (n < reply.length) {
        int r = in.read(reply, n, reply.length - n);
        if (r < 0) {
          break;
        }
        n += r;
      }
      return new String(reply, 0, n, StandardCharsets.US_ASCII).equals("+PONG\r\n");
    } catch (IOException e) {
      return false;
    }
  }

  /** Stops the server (TERM, then KILL after five seconds) and deletes its directory. */
  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // the hook is running or will: nothing left to do
    }
    try (var files = Files.list(dir)) {
      for (Path f : files.toList()) {
        Files.deleteIfExists(f);
      }
      Files.deleteIfExists(dir);
    } catch (IOException e) {
      // a temporary directory left behind is harmless
    }
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new LoadException(LoadException.Reason.SYSTEM_FAILED, "no free loopback port for redis-server: " + e, e);
    }
  }

  private static String tail(Path log) {
    try {
      String s = Files.readString(log, StandardCharsets.UTF_8).strip();
      return s.isEmpty() ? "(empty)" : s.substring(Math.max(0, s.length() - 600));
    } catch (IOException e) {
      return "(unreadable: " + e.getMessage() + ")";
    }
  }
}
