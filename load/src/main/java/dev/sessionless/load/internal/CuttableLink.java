package dev.sessionless.load.internal;

import dev.sessionless.load.LoadException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP relay on loopback between the nodes and Redis that can be {@linkplain #cut() cut}: the
 * network failing, while Redis itself keeps running and keeps its data. Cut, it closes every
 * relayed connection and closes each new one as soon as it is accepted (a client sees its
 * connection reset, as when a route is gone); {@link #restore()} relays again. The {@code
 * revocation-lag} profile uses it for "Redis unreachable" and "a node starts while Redis is
 * down"; a restart of Redis is a real stop and start of the process.
 *
 * <p>Thread-safe. One relay thread per direction of each connection: a handful of connections
 * (three nodes, a subscriber and a pool each).
 */
final class CuttableLink implements AutoCloseable {
  private final ServerSocket server;
  private final int target;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private volatile boolean cut;
  private volatile boolean closed;

  private CuttableLink(ServerSocket server, int target) {
    this.server = server;
    this.target = target;
  }

  /**
   * Starts relaying a free loopback port to {@code targetPort} on loopback.
   *
   * @throws LoadException {@link LoadException.Reason#SYSTEM_FAILED} if no port can be opened
   */
  static CuttableLink start(int targetPort) {
    try {
      ServerSocket s = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      CuttableLink link = new CuttableLink(s, targetPort);
      Thread t = new Thread(link::acceptLoop, "revocation-lag-link");
      t.setDaemon(true);
      t.start();
      return link;
    } catch (IOException e) {
      throw new LoadException(LoadException.Reason.SYSTEM_FAILED, "could not open a loopback port for the link to"
          + " Redis: " + e.getMessage(), e);
    }
  }

  /** The port the nodes connect to. */
  int port() {
    return server.getLocalPort();
  }

  /** {@code redis://127.0.0.1:port} of the relay. */
  String uri() {
    return "redis://127.0.0.1:" + port();
  }

  /** Cuts the link: every relayed connection closes, and new ones are closed once accepted. */
  void cut() {
    cut = true;
    for (Socket s : open) {
      closeQuietly(s);
    }
  }

  /** Relays again. */
  void restore() {
    cut = false;
  }

  /** Whether the link is cut. */
  boolean isCut() {
    return cut;
  }

  private void acceptLoop() {
    while (!closed) {
      Socket client;
      try {
        client = server.accept();
      } catch (IOException e) {
        return; // closed
      }
      if (cut) {
        closeQuietly(client);
        continue;
      }
      try {
        Socket upstream = new Socket();
        upstream.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), target), 1000);
        client.setTcpNoDelay(true);
        upstream.setTcpNoDelay(true);
        open.add(client);
        open.add(upstream);
        pump(client, upstream);
        pump(upstream, client);
      } catch (IOException e) {
        closeQuietly(client); // Redis itself is down: the client sees the refusal as a reset
      }
    }
  }

  private void pump(Socket from, Socket to) {
    Thread t = new Thread(() -> {
      byte[] buffer = new byte[16 * 1024];
      try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
        for (int n = in.read(buffer); n >= 0 && !cut; n = in.read(buffer)) {
          out.write(buffer, 0, n);
          out.flush();
        }
      } catch (IOException e) {
        // one side closed: close both below
      } finally {
        closeQuietly(from);
        closeQuietly(to);
        open.remove(from);
        open.remove(to);
      }
    }, "revocation-lag-relay");
    t.setDaemon(true);
    t.start();
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException e) {
      // closing is best effort
    }
  }

  /** Stops relaying and closes every connection. */
  @Override
  public void close() {
    closed = true;
    cut();
    try {
      server.close();
    } catch (IOException e) {
      // closing is best effort
    }
  }
}
