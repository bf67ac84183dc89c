package dev.sessionless.load;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * A real Jetty server on loopback with two endpoints: {@code /fast} answers at once;
 * {@code /stall} freezes the whole endpoint for one second on every {@code every}-th request
 * (the first included), as a stop-the-world pause would: every request arriving meanwhile waits
 * for the pause to end.
 */
final class StallingServer implements AutoCloseable {
  private final Server server;
  private final int port;

  StallingServer(int every, Duration stall) throws Exception {
    QueuedThreadPool pool = new QueuedThreadPool(400, 8);
    pool.setName("stalling-server");
    server = new Server(pool);
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler("/");
    context.addServlet(new ServletHolder(new HttpServlet() {
      private static final long serialVersionUID = 1L;

      @Override
      protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
        res.getWriter().print("ok");
      }
    }), "/fast");
    AtomicLong count = new AtomicLong();
    AtomicLong stallUntil = new AtomicLong(Long.MIN_VALUE);
    context.addServlet(new ServletHolder(new HttpServlet() {
      private static final long serialVersionUID = 1L;

      @Override
      protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
        if (count.getAndIncrement() % every == 0) {
          stallUntil.set(System.nanoTime() + stall.toNanos());
        }
        long left;
        while ((left = stallUntil.get() - System.nanoTime()) > 0) {
          try {
            Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
          }
        }
        res.getWriter().print("ok");
      }
    }), "/stall");
    server.setHandler(context);
    server.start();
    port = connector.getLocalPort();
  }

  /** A workload of users that all GET one path. */
  Workload get(String path) {
    URI uri = URI.create("http://127.0.0.1:" + port + path);
    HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build();
    return id -> new Workload.VirtualUser() {
      @Override
      public HttpRequest next() {
        return request;
      }

      @Override
      public boolean accept(java.net.http.HttpResponse<String> response) {
        return response.statusCode() == 200;
      }
    };
  }

  @Override
  public void close() throws Exception {
    server.stop();
  }
}
