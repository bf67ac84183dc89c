package dev.sessionless.servlet.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.servlet.SessionlessFilter;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletRegistration;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Every Servlet 6.0 path that commits a response delivers the session changed before it; a
 * streaming writer notices a client that went away; an async request the container ends on a
 * timeout or an error still delivers its session. In the container under test ({@link
 * Containers}), over real HTTP. The 6.1 paths are in {@code Servlet61CommitTest}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ResponseCommitTest {
  final KeySet keys = KeySet.of(TokenKey.generate("k1", Algorithm.DIR_A256GCM));
  Container container;

  @BeforeAll
  void startContainer() {
    container = Container.underTest((classes, ctx) -> {
      FilterRegistration.Dynamic f = ctx.addFilter("sessionless", SessionlessFilter.builder()
          .keys(keys).issuer("https://test.example").audience("it").cookieName("SL").build());
      f.setAsyncSupported(true);
      f.addMappingForUrlPatterns(EnumSet.allOf(DispatcherType.class), false, "/*");
      ServletRegistration.Dynamic commit = ctx.addServlet("commit", new CommitServlet());
      commit.setAsyncSupported(true);
      commit.addMapping("/c/*");
      ctx.addServlet("app", new AppServlet()).addMapping("/s/*");
      ctx.addServlet("error", new ErrorServlet()).addMapping("/error");
    });
  }

  @AfterAll
  void stopContainer() {
    if (container != null) {
      container.stop();
    }
  }

  TestClient client() {
    return new TestClient(container);
  }

  /** The session the client now holds, as the application sees it. */
  private static TestClient.Reply read(TestClient c) {
    return c.get("/s/read");
  }

  @Test
  void containerAndApiAreTheServletVersionThisRunIsFor() {
    String expected = System.getProperty("sessionless.it.servlet-version");
    TestClient.Reply r = client().get("/c/version");
    assertEquals(expected, r.get("container"), container.name() + " " + container.version());
    assertEquals(expected, r.get("api"), "the Servlet API on the class path");
  }

  @Test
  void changeBeforeAZeroContentLengthIsDelivered() {
    TestClient c = client();
    TestClient.Reply r = c.get("/c/length0?value=z");
    assertEquals(200, r.status);
    assertEquals("", r.body);
    assertEquals("z:String", read(c).get("attr.a"));
  }

  @Test
  void changeBeforeAContentLengthHeaderIsReachedIsDeliveredAndALaterOneIsLost() {
    TestClient c = client();
    TestClient.Reply r = c.get("/c/lengthheader?value=h");
    assertEquals("hello", r.body);
    TestClient.Reply read = read(c);
    assertEquals("h:String", read.get("attr.a"));
    assertEquals("[a]", read.get("names"));
  }

  @Test
  void changeBeforeClosingTheStreamIsDelivered() {
    TestClient c = client();
    assertEquals("s", c.get("/c/closestream?value=cs").body);
    TestClient.Reply read = read(c);
    assertEquals("cs:String", read.get("attr.a"));
    assertEquals("[a]", read.get("names"), "a change after closing the body cannot be delivered");
  }

  @Test
  void changeBeforeClosingTheWriterIsDelivered() {
    TestClient c = client();
    assertEquals("w", c.get("/c/closewriter?value=cw").body);
    TestClient.Reply read = read(c);
    assertEquals("cw:String", read.get("attr.a"));
    assertEquals("[a]", read.get("names"));
  }

  @Test
  void resetDropsTheCookieWithTheOtherHeadersAndTheNextWriteRestoresIt() {
    TestClient c = client();
    TestClient.Reply r = c.get("/c/reset?value=r");
    assertEquals("after-reset", r.body);
    assertNull(r.header("X-Dropped"), "reset() dropped the headers set before it");
    assertEquals(1, r.setCookie("SL").size(), r.setCookies.toString());
    assertEquals("r:String", read(c).get("attr.a"));
  }

  @Test
  void streamingWriterSeesTheClientGoAwayThroughCheckError() throws Exception {
    String id = UUID.randomUUID().toString();
    CompletableFuture<String> result =
        CommitServlet.STREAMS.computeIfAbsent(id, k -> new CompletableFuture<>());
    String head;
    try (Socket socket = new Socket("127.0.0.1", container.port())) {
      socket.setSoTimeout(30_000);
      OutputStream out = socket.getOutputStream();
      out.write(("GET /c/stream?value=sse&id=" + id + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      head = readUntil(socket.getInputStream(), "start");
    } // the client goes away with the stream still running
    String outcome = result.get(60, TimeUnit.SECONDS);
    assertEquals("error", outcome, "checkError() must report the container writer's error");
    assertTrue(head.startsWith("HTTP/1.1 200"), head);
    assertTrue(head.contains("Set-Cookie: SL="), "the stream carries the session: " + head);
  }

  private static String readUntil(InputStream in, String marker) throws IOException {
    ByteArrayOutputStream seen = new ByteArrayOutputStream();
    byte[] buf = new byte[1024];
    while (!seen.toString(StandardCharsets.ISO_8859_1).contains(marker)) {
      int n = in.read(buf);
      if (n < 0) {
        break;
      }
      seen.write(buf, 0, n);
    }
    return seen.toString(StandardCharsets.ISO_8859_1);
  }

  @Test
  void asyncRequestTheContainerTimesOutDeliversItsSession() {
    TestClient c = client();
    TestClient.Reply r = c.get("/c/timeout?value=t&timeout=200");
    assertEquals(504, r.status, "the application's timeout listener ended it: " + r.body);
    assertEquals(1, r.setCookie("SL").size(), r.setCookies.toString());
    TestClient.Reply read = read(c);
    assertEquals("t:String", read.get("attr.a"), "the change before the timeout");
    assertEquals("timeout:String", read.get("attr.ended"), "the change in the timeout listener");
  }

  @Test
  void asyncRequestThatFailsAfterStartAsyncDeliversItsSessionOrDropsALateChangeCleanly() {
    // Jetty tells the application's AsyncListener before the commit (it ends the request: 503);
    // Tomcat renders the error page first (500) and tells the listener after the commit.
    TestClient c = client();
    String id = UUID.randomUUID().toString();
    TestClient.Reply r = c.get("/c/error?value=e&timeout=20000&id=" + id);
    String listened = CommitServlet.LISTENED.get(id); // null if not told (yet)
    boolean toldBeforeTheCommit = "error".equals(listened);
    assertEquals(toldBeforeTheCommit ? 503 : 500, r.status, listened + ": " + r.body);
    assertEquals(1, r.setCookie("SL").size(), r.setCookies.toString());
    TestClient.Reply read = read(c);
    assertEquals("e:String", read.get("attr.a"), "the change before the failure");
    assertEquals(toldBeforeTheCommit ? "error:String" : null, read.get("attr.ended"),
        "the error listener's change, unless it came after the commit: " + listened);
  }
}
