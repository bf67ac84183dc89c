package dev.sessionless.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClusterDemoTest {
  @Test
  void cartSurvivesRoundRobinAndAStoppedNodeAndATamperedCookieStartsAFreshSession() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    List<String> replies = ClusterDemo.run(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String printed = bytes.toString(StandardCharsets.UTF_8);
    assertEquals(8, replies.size(), printed);
    assertTrue(printed.contains("kid 2026-11]") && printed.contains("kid 2026-12]"),
        "tokens before the rotation carry the old kid, after it the new one: " + printed);
    assertEquals("jetty-a [espresso-beans]", replies.get(0));
    assertEquals("tomcat-b [espresso-beans, grinder]", replies.get(1));
    assertEquals("jetty-c [espresso-beans, grinder, filter-papers]", replies.get(2));
    for (String reply : replies.subList(3, 7)) {
      assertTrue(!reply.startsWith("tomcat-b"), "a stopped node answers nothing: " + reply);
    }
    assertTrue(replies.get(6).endsWith("[espresso-beans, grinder, filter-papers, mug, milk-jug, scales]"),
        replies.get(6));
    assertTrue(replies.get(7).startsWith("jetty-a [] (token refused: DECRYPTION_FAILED)"), replies.get(7));
  }

  /** A request line no URI may hold: the container answers 400 itself, before any filter runs. */
  private static String malformed(int port) throws IOException {
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
      s.setSoTimeout(30_000);
      s.getOutputStream().write("GET /cart|{x} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
          .getBytes(StandardCharsets.ISO_8859_1));
      return new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
    }
  }

  @Test
  void demoNodesAnswerMalformedRequestsWithoutStackTracesOrServerVersions() throws Exception {
    Path jwks = Files.createTempFile("demo-keys", ".jwks");
    Files.writeString(jwks, KeySet.of(TokenKey.generate("k", Algorithm.DIR_A256GCM)).toJwksWithSecrets());
    try (ClusterDemo.Node jetty = ClusterDemo.jetty("jetty-q", jwks);
        ClusterDemo.Node tomcat = ClusterDemo.tomcat("tomcat-q", jwks)) {
      for (ClusterDemo.Node node : List.of(jetty, tomcat)) {
        String response = malformed(node.port());
        assertTrue(response.startsWith("HTTP/1.1 400"), response);
        String lower = response.toLowerCase(java.util.Locale.ROOT);
        for (String leak : List.of("exception", "\tat ", "at org.", "tomcat", "jetty", "invalid character")) {
          assertFalse(lower.contains(leak), "'" + leak + "' in\n" + response);
        }
      }
    } finally {
      ClusterDemo.KEYRINGS.forEach(k -> k.close());
      ClusterDemo.KEYRINGS.clear();
      Files.deleteIfExists(jwks);
    }
  }
}
