package dev.sessionless.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code redis-server} for tests: started on a free loopback port with no persistence,
 * stopped by {@link #close()}. Needs {@code redis-server} on the {@code PATH} (Debian: {@code
 * apt-get install redis-server}; {@code .ci/run} installs it); without it, {@link #start()} fails
 * with a message saying so, it never skips.
 */
public final class RedisServer implements AutoCloseable {
  private final Process process;
  private final int port;
  private final Path log;

  private RedisServer(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  /**
   * Starts a server and waits until it answers {@code PING}.
   *
   * @throws IllegalStateException if {@code redis-server} is missing or does not come up
   */
  public static RedisServer start() {
    return start(freePort());
  }

  /**
   * Starts a server on this loopback port (to bring one back where a stopped one was) and waits
   * until it answers {@code PING}.
   *
   * @throws IllegalStateException if {@code redis-server} is missing or does not come up
   */
  public static RedisServer start(int port) {
    Path log;
    Process p;
    try {
      log = Files.createTempFile("redis-" + port, ".log");
      p = new ProcessBuilder(List.of("redis-server", "--port", String.valueOf(port), "--bind", "127.0.0.1",
          "--save", "", "--appendonly", "no", "--protected-mode", "yes"))
          .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    } catch (IOException e) {
      throw new IllegalStateException("redis-server could not be started: install it (apt-get install"
          + " redis-server; .ci/run does) and put it on the PATH", e);
    }
    RedisServer server = new RedisServer(p, port, log);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (System.nanoTime() < deadline) {
      if (!p.isAlive()) {
        throw new IllegalStateException("redis-server exited with " + p.exitValue() + ": " + server.logText());
      }
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
    server.close();
    throw new IllegalStateException("redis-server did not answer on port " + port + ": " + server.logText());
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException("no free loopback port", e);
    }
  }

  private boolean ping() {
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
      s.setSoTimeout(1000);
      OutputStream out = s.getOutputStream();
      out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = s.getInputStream();
      byte[] b = new byte[7];
      int n = in.readNBytes(b, 0, 7);
      return n == 7 && new String(b, StandardCharsets.US_ASCII).equals("+PONG\r\n");
    } catch (IOException e) {
      return false;
    }
  }

  private String logText() {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      return "(no log)";
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

  /** Stops the server (and waits for it), and removes its log. */
  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
    try {
      Files.deleteIfExists(log);
    } catch (IOException ignored) {
      // a temp file; the OS cleans it up
    }
  }
}
