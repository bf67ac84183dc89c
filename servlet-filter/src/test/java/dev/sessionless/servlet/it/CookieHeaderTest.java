package dev.sessionless.servlet.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * The filter reads its cookie from the request's {@code Cookie} headers as browsers and proxies
 * really send them, over real HTTP in the container under test: among other cookies, in a later
 * header of several (as HTTP/2 clients split them), with whitespace around it and in double
 * quotes; and it does not mistake a cookie whose name only starts like ours.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CookieHeaderTest {
  final KeySet keys = KeySet.of(TokenKey.generate("k1", Algorithm.DIR_A256GCM));
  Container container;
  String token;

  @BeforeAll
  void startContainer() {
    container = Container.underTest((classes, ctx) -> {
      ctx.addFilter("s", SessionlessFilter.builder().keys(keys).issuer("i").audience("a")
          .cookieName("SL").build()).addMappingForUrlPatterns(null, false, "/s/*");
      ctx.addServlet("app", new AppServlet()).addMapping("/s/*");
    });
    TestClient c = new TestClient(container);
    c.get("/s/set?name=a&value=kept");
    token = c.cookies.get("SL");
  }

  @AfterAll
  void stopContainer() {
    if (container != null) {
      container.stop();
    }
  }

  /** The reply's body lines as key=value, for GET /s/read with these raw header lines. */
  Map<String, String> read(String... headerLines) {
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), container.port())) {
      s.setSoTimeout(30_000);
      StringBuilder req = new StringBuilder("GET /s/read HTTP/1.1\r\nHost: 127.0.0.1\r\n");
      for (String h : headerLines) {
        req.append(h).append("\r\n");
      }
      req.append("Connection: close\r\n\r\n");
      s.getOutputStream().write(req.toString().getBytes(StandardCharsets.US_ASCII));
      String response = new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
      int split = response.indexOf("\r\n\r\n");
      assertTrue(response.startsWith("HTTP/1.1 200"), response);
      Map<String, String> body = new LinkedHashMap<>();
      String text = response.substring(split + 4);
      if (response.substring(0, split).toLowerCase().contains("transfer-encoding: chunked")) {
        text = dechunk(text);
      }
      for (String line : text.split("\r?\n")) {
        int eq = line.indexOf('=');
        if (eq > 0) {
          body.put(line.substring(0, eq), line.substring(eq + 1));
        }
      }
      return body;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String dechunk(String chunked) {
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (true) {
      int eol = chunked.indexOf("\r\n", i);
      int size = Integer.parseInt(chunked.substring(i, eol).trim(), 16);
      if (size == 0) {
        return out.toString();
      }
      out.append(chunked, eol + 2, eol + 2 + size);
      i = eol + 2 + size + 2;
    }
  }

  @Test
  void tokenAmongOtherCookiesIsRead() {
    Map<String, String> r = read("Cookie: theme=dark; SL=" + token + "; lang=en-GB");
    assertEquals("kept:String", r.get("attr.a"), r.toString());
    assertEquals("null", r.get("rejection"), r.toString());
  }

  @Test
  void tokenInTheSecondOfTwoCookieHeadersIsRead() {
    Map<String, String> r = read("Cookie: theme=dark", "Cookie: lang=en; SL=" + token);
    assertEquals("kept:String", r.get("attr.a"), r.toString());
  }

  @Test
  void whitespaceAroundTheCookieAndQuotesAroundItsValueAreRemoved() {
    Map<String, String> r = read("Cookie: lang=en;   SL = \"" + token + "\" ;other=1");
    assertEquals("kept:String", r.get("attr.a"), r.toString());
  }

  @Test
  void cookieWhoseNameOnlyStartsLikeOursIsNotOurs() {
    Map<String, String> r = read("Cookie: SLX=" + token + "; SL.0=" + token + "; XSL=" + token);
    assertEquals("none", r.get("session"), r.toString());
    assertEquals("null", r.get("rejection"), r.toString());
  }

  @Test
  void pieceWithoutAValueIsSkippedAndTheTokenStillRead() {
    Map<String, String> r = read("Cookie: flag; ; SL=" + token);
    assertEquals("kept:String", r.get("attr.a"), r.toString());
  }

  @Test
  void cookieHeaderOfManyEmptyPiecesAsLargeAsContainersAcceptGetsANormalAnswer() {
    // The worst shape for a parser that looks for '=' past the piece it is in, as large as
    // Jetty's and Tomcat's default 8 KiB request header limit allows. Empty pieces, because
    // Tomcat answers 400 itself, before any filter, to more than 200 named cookies.
    String tail = "; SL=" + token;
    int room = 8 * 1024 - 200 - tail.length();
    String pieces = ";".repeat(room);
    Map<String, String> r = read("Cookie: " + pieces + tail);
    assertEquals("kept:String", r.get("attr.a"), r.toString());
    assertEquals("null", r.get("rejection"), r.toString());
    Map<String, String> none = read("Cookie: " + pieces);
    assertEquals("none", none.get("session"), none.toString());
  }

  @Test
  void tamperedTokenIsRejectedNotRead() {
    int at = token.length() - 2; // every bit of this signature character counts
    String tampered = token.substring(0, at) + (token.charAt(at) == 'A' ? 'B' : 'A') + token.substring(at + 1);
    Map<String, String> r = read("Cookie: SL=" + tampered);
    assertEquals("none", r.get("session"), r.toString());
    assertEquals("DECRYPTION_FAILED", r.get("rejection"), r.toString()); // the default token is a JWE
  }
}
