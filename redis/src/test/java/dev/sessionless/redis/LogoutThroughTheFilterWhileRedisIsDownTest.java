package dev.sessionless.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.servlet.SessionlessFilter;
import dev.sessionless.testing.RedisServer;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 35, end to end: a logout through the session filter, in a real Jetty over HTTP on
 * loopback, while the real {@code redis-server} behind {@link RedisRevocations} is stopped. The
 * client gets {@code 503} with {@code Retry-After} (an outage it may retry, never a 500 or a
 * stack trace) and its cookie is cleared in that response; the node applied the revocation
 * before the write failed, so a copy of the old cookie is refused there, during the outage and
 * after Redis is back and the node has read it again (a read adds to the copy, never removes);
 * and it writes the revocation to Redis once Redis answers, so another node refuses it too.
 */
class LogoutThroughTheFilterWhileRedisIsDownTest {
  static final String COOKIE = "SHOP";
  final KeySet keys = KeySet.of(TokenKey.generate("2026-11", Algorithm.DIR_A256GCM));
  final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
      .followRedirects(HttpClient.Redirect.NEVER).build();
  final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }

  @Test
  @Timeout(120)
  void logoutWhileRedisIsStoppedAnswers503ClearsTheCookieAndTheCopiedTokenIsRefusedEverywhereOnceRedisIsBack()
      throws Exception {
    RedisServer redis = RedisServer.start();
    int redisPort = redis.port();
    open.add(redis);
    RedisRevocations revocations = RedisRevocations.builder().uri(redis.uri())
        .pollInterval(Duration.ofMillis(200)).build();
    open.add(revocations);
    URI base = startNode(revocations);

    HttpResponse<String> login = get(base.resolve("/app/login?user=judy"), null);
    assertEquals(200, login.statusCode(), login.body());
    String token = cookie(login).orElseThrow(() -> new AssertionError("no session cookie: " + login.headers()));
    assertTrue(get(base.resolve("/app/me"), token).body().contains("user=judy\n"));

    redis.close(); // Redis goes away for real
    HttpResponse<String> logout = get(base.resolve("/app/logout"), token);
    assertEquals(503, logout.statusCode(), "an outage the client can retry, not a 500: " + logout.body());
    assertTrue(logout.headers().firstValue("Retry-After").isPresent(), logout.headers().toString());
    assertFalse(logout.body().contains("TokenException") || logout.body().contains("dev.sessionless.")
        || logout.body().contains("\tat ") || logout.body().contains("redis.clients"),
        "no stack trace or class name to the client: " + logout.body());
    List<String> cleared = setCookies(logout);
    assertEquals(1, cleared.size(), "the session cookie is cleared in the 503 itself: " + logout.headers());
    assertTrue(cleared.get(0).contains("Max-Age=0"), cleared.get(0));

    HttpResponse<String> copiedDuring = get(base.resolve("/app/me"), token);
    assertEquals(200, copiedDuring.statusCode(), copiedDuring.body());
    assertTrue(copiedDuring.body().contains("user=none\nrejection=SESSION_REVOKED"),
        "the copied cookie is refused while Redis is down: " + copiedDuring.body());

    long synced = revocations.syncCount();
    try (RedisServer back = RedisServer.start(redisPort)) {
      RedisRevocationsTest.arrives(() -> revocations.syncCount() > synced, Duration.ofSeconds(60)); // read again
      HttpResponse<String> copiedAfter = get(base.resolve("/app/me"), token);
      assertEquals(200, copiedAfter.statusCode(), copiedAfter.body());
      assertTrue(copiedAfter.body().contains("user=none\nrejection=SESSION_REVOKED"),
          "still refused once Redis is back and read again: " + copiedAfter.body());

      // The node wrote the logout to Redis once it answered: a node that never saw it refuses it too.
      RedisRevocations otherStore = RedisRevocations.builder().uri(back.uri())
          .pollInterval(Duration.ofMillis(200)).build();
      open.add(otherStore);
      URI other = startNode(otherStore);
      RedisRevocationsTest.arrives(() -> refused(other, token), Duration.ofSeconds(60));
    }
  }

  boolean refused(URI node, String token) {
    try {
      return get(node.resolve("/app/me"), token).body().contains("rejection=SESSION_REVOKED");
    } catch (IOException | InterruptedException e) {
      throw new AssertionError(e);
    }
  }

  /**
   * A node: Jetty on a free loopback port, the session filter with {@code revocations}, the app.
   * (The examples' PropagationDemo starts Jetty the same way; neither module can see the other.)
   */
  URI startNode(RedisRevocations revocations) throws Exception {
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    context.setContextPath("/");
    SessionlessFilter filter = SessionlessFilter.builder().keys(keys).issuer("https://shop.example")
        .audience("shop").cookieName(COOKIE).maxInactiveInterval(Duration.ofMinutes(30)).revocation(revocations)
        .build();
    context.addFilter(new FilterHolder(filter), "/*", EnumSet.of(DispatcherType.REQUEST));
    context.addServlet(new ServletHolder(new LoginServlet()), "/app/*");
    server.setHandler(context);
    server.start();
    open.add(server::stop);
    return URI.create("http://127.0.0.1:" + connector.getLocalPort());
  }

  HttpResponse<String> get(URI uri, String token) throws IOException, InterruptedException {
    HttpRequest.Builder req = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).GET();
    if (token != null) {
      req.header("Cookie", COOKIE + "=" + token);
    }
    return http.send(req.build(), HttpResponse.BodyHandlers.ofString());
  }

  static List<String> setCookies(HttpResponse<?> res) {
    return res.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith(COOKIE + "=")).toList();
  }

  static java.util.Optional<String> cookie(HttpResponse<?> res) {
    return setCookies(res).stream().map(c -> c.substring(COOKIE.length() + 1, c.indexOf(';')))
        .filter(v -> !v.isEmpty()).findFirst();
  }

  /**
   * The application: {@code /app/login?user=}, {@code /app/logout}, {@code /app/me}; each answers
   * the session's user and the filter's rejection of the cookie, if any.
   */
  static final class LoginServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
      switch (String.valueOf(req.getPathInfo())) {
        case "/login" -> req.getSession().setAttribute("user", req.getParameter("user"));
        case "/logout" -> {
          HttpSession s = req.getSession(false);
          if (s != null) {
            s.invalidate();
          }
        }
        case "/me" -> { }
        default -> {
          res.sendError(404);
          return;
        }
      }
      HttpSession s = req.getSession(false);
      res.setContentType("text/plain;charset=UTF-8");
      res.getWriter().println("user=" + (s == null ? "none" : s.getAttribute("user")));
      res.getWriter().println("rejection=" + req.getAttribute(SessionlessFilter.REJECTION_ATTRIBUTE));
    }
  }
}
