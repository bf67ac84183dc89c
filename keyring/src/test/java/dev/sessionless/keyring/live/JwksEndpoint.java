package dev.sessionless.keyring.live;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.sessionless.core.KeySet;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real JWKS endpoint: the JDK's HTTP server on loopback, port 0, whose behaviour each test
 * sets through the volatile fields. Counts every request it receives.
 */
final class JwksEndpoint implements AutoCloseable {
  final HttpServer server;
  private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "jwks-endpoint");
    t.setDaemon(true);
    return t;
  });
  final AtomicInteger requests = new AtomicInteger();
  final List<String> ifNoneMatch = new CopyOnWriteArrayList<>();
  volatile String body;
  volatile String etag;
  volatile String cacheControl;
  volatile String age;
  volatile int status = 200;
  /** Send the body chunked, without a Content-Length. */
  volatile boolean chunked;
  /** Fail inside the handler, so the server drops the connection without an answer. */
  volatile boolean dropConnection;
  /** While set, requests wait on it before answering. */
  volatile CountDownLatch hang;
  final CountDownLatch hanging = new CountDownLatch(1);

  JwksEndpoint(KeySet keys) throws IOException {
    this(keys, false);
  }

  /** An endpoint over HTTPS with the certificate of {@link TestTls#LOOPBACK} (clients must trust it). */
  static JwksEndpoint tls(KeySet keys) throws IOException {
    return new JwksEndpoint(keys, true);
  }

  private JwksEndpoint(KeySet keys, boolean tls) throws IOException {
    body = keys.toPublicJwks();
    InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    if (tls) {
      HttpsServer https = HttpsServer.create(loopback, 0);
      https.setHttpsConfigurator(new HttpsConfigurator(TestTls.LOOPBACK.server));
      server = https;
    } else {
      server = HttpServer.create(loopback, 0);
    }
    server.createContext("/jwks", this::handle);
    server.setExecutor(executor);
    server.start();
  }

  URI uri() {
    String scheme = server instanceof HttpsServer ? "https" : "http";
    return URI.create(scheme + "://127.0.0.1:" + server.getAddress().getPort() + "/jwks");
  }

  void publish(KeySet keys) {
    body = keys.toPublicJwks();
  }

  private void handle(HttpExchange ex) throws IOException {
    requests.incrementAndGet();
    String inm = ex.getRequestHeaders().getFirst("If-None-Match");
    if (inm != null) {
      ifNoneMatch.add(inm);
    }
    CountDownLatch h = hang;
    if (h != null) {
      hanging.countDown();
      try {
        h.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (dropConnection) {
      throw new IOException("dropping the connection on purpose");
    }
    if (cacheControl != null) {
      ex.getResponseHeaders().set("Cache-Control", cacheControl);
    }
    if (age != null) {
      ex.getResponseHeaders().set("Age", age);
    }
    if (status != 200) {
      ex.sendResponseHeaders(status, -1);
      ex.close();
      return;
    }
    if (etag != null) {
      ex.getResponseHeaders().set("ETag", etag);
      if (etag.equals(inm)) {
        ex.sendResponseHeaders(304, -1);
        ex.close();
        return;
      }
    }
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", "application/jwk-set+json");
    ex.sendResponseHeaders(200, chunked ? 0 : bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }

  /** Lets hanging requests go and stops the server. */
  @Override
  public void close() {
    CountDownLatch h = hang;
    if (h != null) {
      h.countDown();
    }
    server.stop(0);
    executor.shutdownNow();
  }
}
