package dev.sessionless.testing;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real Redis Cluster of three masters (no replicas) on loopback, for the tests and the load
 * tool: three {@code redis-server} processes (the binary {@link RedisServer#chosenExecutable()}
 * chooses, so 6.2 from the build where the {@code PATH} has none) with {@code cluster-enabled
 * yes}, formed by this class itself through the cluster commands ({@code CLUSTER ADDSLOTS} on
 * each, a third of the 16384 slots apiece, then {@code CLUSTER MEET}), which works on every
 * machine, {@code redis-cli} or not. {@link #start()} returns once every master says {@code
 * cluster_state:ok}; {@link #close()} kills them all and removes their directories (a shutdown
 * hook does the same should the JVM end first).
 *
 * <p>Each master appends every write to its AOF and syncs it ({@code appendfsync always}), and
 * the cluster's node timeout is 2 seconds: {@link #kill} a master (SIGKILL) and, once the others
 * have marked it failed, the cluster answers {@code CLUSTERDOWN} (full slot coverage is
 * required, Redis's default); {@link #restart} it on its port with its directory and it comes
 * back with its data and its place in the cluster.
 *
 * <p>Not thread-safe.
 */
public final class RedisCluster implements AutoCloseable {
  private static final int SLOTS = 16384;
  private static final Duration FORMS_WITHIN = Duration.ofSeconds(60);

  private final Path executable;
  private final List<Master> masters = new ArrayList<>();
  private final Thread hook = new Thread(this::killAll, "redis-cluster-stop");

  /** One master: its port, its directory (kept across a restart) and its process, if running. */
  private static final class Master {
    final int port;
    final Path dir;
    Process process;

    Master(int port, Path dir) {
      this.port = port;
      this.dir = dir;
    }
  }

  private RedisCluster(Path executable) {
    this.executable = executable;
    Runtime.getRuntime().addShutdownHook(hook);
  }

  /**
   * Starts three masters on free loopback ports, forms the cluster and waits until it is {@code
   * ok}.
   *
   * @throws IllegalStateException if a server does not come up or the cluster does not form
   *     within a minute (the message carries the end of the logs)
   */
  public static RedisCluster start() {
    RedisCluster cluster = new RedisCluster(RedisServer.chosenExecutable());
    try {
      for (int i = 0; i < 3; i++) {
        int port = freeClusterPort();
        Master m = new Master(port, Files.createTempDirectory("redis-cluster-" + port + "-"));
        cluster.masters.add(m);
        cluster.launch(m);
      }
      for (int i = 0; i < 3; i++) {
        int from = i * SLOTS / 3;
        int to = (i + 1) * SLOTS / 3;
        List<String> addSlots = new ArrayList<>(List.of("CLUSTER", "ADDSLOTS"));
        for (int s = from; s < to; s++) {
          addSlots.add(Integer.toString(s));
        }
        command(cluster.masters.get(i).port, addSlots.toArray(new String[0]));
      }
      for (int i = 1; i < 3; i++) {
        command(cluster.masters.get(0).port, "CLUSTER", "MEET", "127.0.0.1", Integer.toString(cluster.masters.get(i).port));
      }
      cluster.awaitState("ok", FORMS_WITHIN);
      return cluster;
    } catch (IOException | RuntimeException e) {
      String logs = cluster.logs();
      cluster.close();
      throw new IllegalStateException("the Redis Cluster did not form: " + e.getMessage() + "; logs: " + logs, e);
    }
  }

  /** A port free for the server and for its cluster bus (the port plus 10000). */
  private static int freeClusterPort() throws IOException {
    for (int attempt = 0; attempt < 50; attempt++) {
      int port = RedisServer.freePort();
      if (port + 10000 > 65535) {
        continue;
      }
      try (ServerSocket bus = new ServerSocket(port + 10000, 1, InetAddress.getLoopbackAddress())) {
        return port;
      } catch (IOException taken) {
        // try another
      }
    }
    throw new IOException("no free loopback port pair (port, port + 10000) for a cluster node");
  }

  private void launch(Master m) throws IOException {
    List<String> command = List.of(executable.toString(), "--port", Integer.toString(m.port),
        "--bind", "127.0.0.1", "--protected-mode", "yes", "--daemonize", "no", "--dir", m.dir.toString(),
        "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "2000",
        "--appendonly", "yes", "--appendfsync", "always", "--save", "");
    m.process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(m.dir.resolve("redis.log").toFile())).start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (System.nanoTime() < deadline && m.process.isAlive()) {
      try {
        if ("PONG".equals(command(m.port, "PING"))) {
          return;
        }
      } catch (IOException | RuntimeException notYet) {
        // not listening yet
      }
      sleep(20); // polling a child process until it listens
    }
    throw new IllegalStateException(executable + " did not answer PING on 127.0.0.1:" + m.port);
  }

  /** The masters' addresses, {@code redis://127.0.0.1:port}, in start order. */
  public List<String> uris() {
    return masters.stream().map(m -> "redis://127.0.0.1:" + m.port).toList();
  }

  /** The masters' ports, in start order. */
  public List<Integer> ports() {
    return masters.stream().map(m -> m.port).toList();
  }

  /**
   * The port of the master that holds {@code key}'s slot (asked of the cluster: {@code CLUSTER
   * KEYSLOT}, then the slot ranges this class assigned).
   *
   * @throws IOException if no master answers
   */
  public int portOf(String key) throws IOException {
    long slot = (Long) command(anyRunning().port, "CLUSTER", "KEYSLOT", key);
    int i = 0;
    while (slot >= (long) (i + 1) * SLOTS / 3) {
      i++;
    }
    return masters.get(i).port;
  }

  /** Kills the master on {@code port} (SIGKILL: no shutdown, no final save) and waits until it is gone. */
  public void kill(int port) throws InterruptedException {
    Master m = master(port);
    m.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
  }

  /**
   * Starts the master on {@code port} again with its directory (its AOF and {@code nodes.conf}),
   * and waits until every master says {@code cluster_state:ok}.
   *
   * @throws IllegalStateException if it does not come back within a minute
   */
  public void restart(int port) throws IOException {
    launch(master(port));
    awaitState("ok", FORMS_WITHIN);
  }

  /**
   * Waits until every running master reports {@code cluster_state:<state>} ({@code ok} or
   * {@code fail}).
   *
   * @throws IllegalStateException if they do not within {@code limit}
   */
  public void awaitState(String state, Duration limit) {
    long deadline = System.nanoTime() + limit.toNanos();
    while (System.nanoTime() < deadline) {
      if (masters.stream().filter(m -> m.process != null && m.process.isAlive())
          .allMatch(m -> state(m.port).equals(state))) {
        return;
      }
      sleep(50); // polling other processes' view of the cluster
    }
    throw new IllegalStateException("cluster_state did not become " + state + " within " + limit);
  }

  private static String state(int port) {
    try {
      String info = String.valueOf(command(port, "CLUSTER", "INFO"));
      int i = info.indexOf("cluster_state:");
      return i < 0 ? "" : info.substring(i + 14, info.indexOf('\r', i)).strip();
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }

  /**
   * Sends one command to the server on {@code port} and returns its reply: a {@code String}, a
   * {@code Long}, a {@code List} of these, or null.
   *
   * @throws IOException if the server cannot be reached
   * @throws IllegalStateException if it answers with an error
   */
  public static Object command(int port, String... args) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
      s.setSoTimeout(5000);
      OutputStream out = s.getOutputStream();
      ByteArrayOutputStream req = new ByteArrayOutputStream();
      req.writeBytes(("*" + args.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
      for (String a : args) {
        byte[] b = a.getBytes(StandardCharsets.UTF_8);
        req.writeBytes(("$" + b.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        req.writeBytes(b);
        req.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
      }
      out.write(req.toByteArray());
      out.flush();
      return reply(new BufferedInputStream(s.getInputStream()));
    }
  }

  private static Object reply(InputStream in) throws IOException {
    int type = in.read();
    String line = line(in);
    switch (type) {
      case '+':
        return line;
      case '-':
        throw new IllegalStateException("Redis answered: " + line);
      case ':':
        return Long.parseLong(line);
      case '$': {
        int n = Integer.parseInt(line);
        if (n < 0) {
          return null;
        }
        byte[] b = in.readNBytes(n + 2);
        return new String(b, 0, n, StandardCharsets.UTF_8);
      }
      case '*': {
        int n = Integer.parseInt(line);
        List<Object> items = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          items.add(reply(in));
        }
        return items;
      }
      default:
        throw new IOException("not a RESP2 reply: " + (char) type);
    }
  }

  private static String line(InputStream in) throws IOException {
    StringBuilder sb = new StringBuilder();
    for (int c = in.read(); c != '\r'; c = in.read()) {
      if (c < 0) {
        throw new IOException("the connection closed mid-reply");
      }
      sb.append((char) c);
    }
    in.read(); // '\n'
    return sb.toString();
  }

  private Master master(int port) {
    return masters.stream().filter(m -> m.port == port).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no master on port " + port));
  }

  private Master anyRunning() {
    return masters.stream().filter(m -> m.process != null && m.process.isAlive()).findFirst()
        .orElseThrow(() -> new IllegalStateException("no master is running"));
  }

  private String logs() {
    StringBuilder sb = new StringBuilder();
    for (Master m : masters) {
      sb.append("[").append(m.port).append("] ").append(RedisServer.tail(m.dir.resolve("redis.log"))).append(' ');
    }
    return sb.toString();
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the cluster", e);
    }
  }

  private void killAll() {
    for (Master m : masters) {
      if (m.process != null) {
        m.process.destroyForcibly();
      }
    }
  }

  /** Kills every master, waits for them, and removes their directories. */
  @Override
  public void close() {
    killAll();
    for (Master m : masters) {
      try {
        if (m.process != null) {
          m.process.waitFor(10, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      deleteTree(m.dir);
    }
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // the hook is running or will
    }
  }

  /** Removes a master's directory, with the AOF directory Redis 7 makes inside it. */
  private static void deleteTree(Path dir) {
    Path aof = dir.resolve("appendonlydir");
    if (Files.isDirectory(aof)) {
      RedisServer.deleteDir(aof);
    }
    RedisServer.deleteDir(dir);
  }

  @Override
  public String toString() {
    return "RedisCluster[" + executable + " on 127.0.0.1:" + ports() + "]";
  }
}
