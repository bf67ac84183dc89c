package dev.sessionless.keyring.live;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * A listening socket that never accepts, its backlog filled up: the kernel then ignores new
 * connection attempts (SYNs are dropped), so a client's connect hangs until its connect timeout.
 */
final class FullBacklogServer implements AutoCloseable {
  private final ServerSocket socket;
  private final List<Socket> fillers = new ArrayList<>();

  FullBacklogServer() throws IOException {
    socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
    for (int i = 0; i < 64; i++) {
      Socket s = new Socket();
      try {
        s.connect(socket.getLocalSocketAddress(), 200);
        fillers.add(s);
      } catch (SocketTimeoutException full) {
        s.close();
        return;
      }
    }
    throw new IllegalStateException("the backlog never filled up");
  }

  URI uri() {
    return URI.create("http://127.0.0.1:" + socket.getLocalPort() + "/jwks");
  }

  @Override
  public void close() throws IOException {
    for (Socket s : fillers) {
      s.close();
    }
    socket.close();
  }
}
