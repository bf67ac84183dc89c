package dev.sessionless.load.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.junit.jupiter.api.Test;

/**
 * A killed node's connections end as a dead process's would: whatever the server still holds
 * open is closed, so a client waiting on it gets an end of stream, not its own timeout.
 */
class KillableConnectorTest {
  @Test
  void closeAcceptedEndsAConnectionTheServerStillHolds() throws Exception {
    Server server = new Server();
    KillableConnector connector = new KillableConnector(server, new HttpConnectionFactory(new HttpConfiguration()));
    connector.setHost("127.0.0.1");
    server.addConnector(connector);
    server.start();
    try (Socket client = new Socket(InetAddress.getLoopbackAddress(), connector.getLocalPort())) {
      // half a request: the server accepts the connection and waits for the rest
      client.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));
      client.getOutputStream().flush();
      client.setSoTimeout(10_000); // a guard only: the assertion is on what arrives, not when
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (connector.getConnectedEndPoints().isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(5); // until the server holds the connection: closing before proves nothing
      }
      assertEquals(1, connector.getConnectedEndPoints().size(), "the server holds the connection");
      connector.closeAccepted();
      InputStream in = client.getInputStream();
      int read;
      try {
        read = in.read();
      } catch (SocketException reset) {
        read = -1; // a reset ends the connection just as well
      }
      assertEquals(-1, read, "the connection ended");
    } finally {
      server.stop();
    }
  }
}
