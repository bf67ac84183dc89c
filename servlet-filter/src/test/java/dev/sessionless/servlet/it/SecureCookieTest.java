package dev.sessionless.servlet.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.servlet.SessionlessFilter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * When session cookies carry {@code Secure}, over real HTTP with the {@code Host} a browser
 * or a reverse proxy would send: by default always, whatever the {@code Host} (a proxy that
 * rewrites it to {@code 127.0.0.1} must not turn {@code Secure} off), only on secure requests
 * when the application turns it off, and a {@code __Host-} cookie exactly as browsers require it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SecureCookieTest {
  final KeySet keys = KeySet.of(TokenKey.generate("k1", Algorithm.DIR_A256GCM));
  Container container;


  @BeforeAll
  void startContainer() {
    container = Container.underTest((classes, ctx) -> {
      ctx.addFilter("default", SessionlessFilter.builder().keys(keys).issuer("i").audience("a")
          .cookieName("SD").build()).addMappingForUrlPatterns(null, false, "/d/*");
      ctx.addFilter("always", SessionlessFilter.builder().keys(keys).issuer("i").audience("a")
          .cookieName("SA").cookieSecure(true).build()).addMappingForUrlPatterns(null, false, "/a/*");
      ctx.addFilter("request", SessionlessFilter.builder().keys(keys).issuer("i").audience("a")
          .cookieName("SR").cookieSecure(false).build()).addMappingForUrlPatterns(null, false, "/r/*");
      ctx.addFilter("host", SessionlessFilter.builder().keys(keys).issuer("i").audience("a")
          .cookieName("__Host-S").build()).addMappingForUrlPatterns(null, false, "/app/h/*");
      ctx.addServlet("app", new AppServlet()).addMapping("/d/*", "/a/*", "/r/*", "/app/h/*");
    });
  }

  @AfterAll
  void stopContainer() {
    if (container != null) {
      container.stop();
    }
  }

  /** The Set-Cookie headers of GET {@code path} sent with {@code Host: host} and extra header lines. */
  List<String> setCookies(String path, String host, String... headerLines) {
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), container.port())) {
      s.setSoTimeout(30_000);
      StringBuilder req = new StringBuilder("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\n");
      for (String h : headerLines) {
        req.append(h).append("\r\n");
      }
      req.append("Connection: close\r\n\r\n");
      s.getOutputStream().write(req.toString().getBytes(StandardCharsets.US_ASCII));
      String response = new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
      String head = response.substring(0, response.indexOf("\r\n\r\n"));
      assertTrue(head.startsWith("HTTP/1.1 200"), head);
      List<String> cookies = new ArrayList<>();
      for (String line : head.split("\r\n")) {
        if (line.regionMatches(true, 0, "Set-Cookie:", 0, 11)) {
          cookies.add(line.substring(11).trim());
        }
      }
      assertEquals(1, cookies.size(), head);
      return cookies;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static boolean secure(List<String> cookies) {
    return cookies.get(0).contains("; Secure");
  }

  @Test
  void defaultIsSecureEvenWhenAProxyRewritesHostToLoopback() {
    // nginx's proxy_pass http://127.0.0.1:8080 sends "Host: 127.0.0.1:8080" over plain http:
    // the Host header says nothing about what the browser used, so it must not decide Secure.
    assertTrue(secure(setCookies("/d/new", "127.0.0.1")), "Host rewritten by a reverse proxy");
    assertTrue(secure(setCookies("/d/new", "127.0.0.1:8080")));
    assertTrue(secure(setCookies("/d/new", "localhost:8080")), "browsers accept Secure on http://localhost");
    assertTrue(secure(setCookies("/d/new", "[::1]:8080")));
    assertTrue(secure(setCookies("/d/new", "shop.example")), "plain http from a TLS-terminating proxy");
    assertTrue(secure(setCookies("/d/new", "10.0.0.7:8080")));
    assertTrue(secure(setCookies("/d/new", "localhost", "X-Forwarded-Proto: https")));
  }

  @Test
  void forcedSecureIsSecureEvenOnLoopbackHttp() {
    assertTrue(secure(setCookies("/a/new", "127.0.0.1")));
    assertTrue(secure(setCookies("/a/new", "shop.example")));
  }

  @Test
  void secureOnlyOnSecureRequestsWhenTurnedOff() {
    assertFalse(secure(setCookies("/r/new", "shop.example")));
    assertFalse(secure(setCookies("/r/new", "127.0.0.1")));
    assertTrue(secure(setCookies("/r/new", "shop.example", "X-Forwarded-Proto: https")));
  }

  @Test
  void hostPrefixedCookieIsSecureWithRootPathAndNoDomainEvenOnLoopbackHttp() {
    String cookie = setCookies("/app/h/new", "127.0.0.1").get(0);
    assertTrue(cookie.startsWith("__Host-S="), cookie);
    assertTrue(cookie.contains("; Path=/;"), cookie);
    assertTrue(cookie.contains("; Secure"), cookie);
    assertFalse(cookie.contains("Domain="), cookie);
  }
}
