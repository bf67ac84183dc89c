package dev.sessionless.servlet.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.servlet.SessionlessFilter;
import jakarta.servlet.DispatcherType;
import java.util.EnumSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The Servlet 6.1 ways of committing a response deliver the session changed before them. Runs
 * only in 6.1 containers (Tomcat 11, Jetty 12.1 ee11): the modules under
 * {@code servlet-filter-containers}; servlet-filter excludes its tag (which, unlike an exclude
 * pattern, a {@code -Dtest=...} does not override).
 */
@Tag("servlet-6.1")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class Servlet61CommitTest {
  final KeySet keys = KeySet.of(TokenKey.generate("k1", Algorithm.DIR_A256GCM));
  Container container;

  @BeforeAll
  void startContainer() {
    container = Container.underTest((classes, ctx) -> {
      ctx.addFilter("sessionless", SessionlessFilter.builder()
              .keys(keys).issuer("https://test.example").audience("it").cookieName("SL").build())
          .addMappingForUrlPatterns(EnumSet.allOf(DispatcherType.class), false, "/*");
      ctx.addServlet("servlet61", new Servlet61Servlet()).addMapping("/61/*");
      ctx.addServlet("app", new AppServlet()).addMapping("/s/*");
    });
  }

  @AfterAll
  void stopContainer() {
    if (container != null) {
      container.stop();
    }
  }

  @ParameterizedTest(name = "sendRedirect {0}")
  @CsvSource({
      "status-and-clear, 303, ''",
      "status, 307, ''",
      "keep-buffer, 302, kept",
  })
  void changeBeforeEveryRedirectOverloadIsDelivered(String overload, int status, String body) {
    TestClient c = new TestClient(container);
    TestClient.Reply r = c.get("/61/redirect?overload=" + overload + "&value=" + overload);
    assertEquals(status, r.status);
    assertTrue(r.header("Location").endsWith("/s/read"), r.header("Location"));
    assertEquals(1, r.setCookie("SL").size(), r.setCookies.toString());
    if (!body.isEmpty()) {
      assertTrue(r.body.startsWith(body), "clearBuffer=false keeps what was written: " + r.body);
    }
    assertEquals(overload + ":String", c.get("/s/read").get("attr.a"));
  }

  @Test
  void changeBeforeAByteBufferWriteIsDeliveredAndALaterOneIsLost() {
    TestClient c = new TestClient(container);
    TestClient.Reply r = c.get("/61/bytebuffer?value=bb&kb=64");
    assertEquals(64 * 1024, r.body.length());
    assertEquals(1, r.setCookie("SL").size(), r.setCookies.toString());
    TestClient.Reply read = c.get("/s/read");
    assertEquals("bb:String", read.get("attr.a"));
    assertEquals("[a]", read.get("names"), "a change after the commit cannot be delivered");
  }
}
