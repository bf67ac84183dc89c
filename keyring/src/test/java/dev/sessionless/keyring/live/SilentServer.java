package dev.sessionless.keyring.live;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A raw TCP server on loopback that accepts connections and then misbehaves: answers nothing,
 * or sends response headers (and optionally the first bytes of a body) and then stalls for ever.
 */
final class SilentServer implements AutoCloseable {
  private final ServerSocket socket;
  private final List<Socket> accepted = new CopyOnWriteArrayList<>();
  final AtomicInteger connections = new AtomicInteger();

  /** @param prefix what to send once the request headers have arrived, or {@code null} for nothing */
  SilentServer(String prefix) throws IOException {
    socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(() -> {
      try {
        while (true) {
          Socket s = socket.accept();
          connections.incrementAndGet();
          accepted.add(s);
          if (prefix != null) {
            answer(s, prefix);
          }
        }
      } catch (IOException closed) {
        // the server was closed
      }
    }, "silent-server");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  private static void answer(Socket s, String prefix) {
    try {
      InputStream in = s.getInputStream();
      int matched = 0;
      byte[] end = {'\r', '\n', '\r', '\n'};
      while (matched < 4) { // read the request headers
        int b = in.read();
        if (b < 0) {
          return;
        }
        matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
      }
      OutputStream out = s.getOutputStream();
      out.write(prefix.getBytes(StandardCharsets.US_ASCII));
      out.flush(); // ... and then nothing more, ever
    } catch (IOException e) {
      // the client gave up
    }
  }

  URI uri() {
    return URI.create("http://127.0.0.1:" + socket.getLocalPort() + "/jwks");
  }

  @Override
  public void close() throws IOException {
    socket.close();
    for (Socket s : accepted) {
      s.close();
    }
  }
}
