package dev.sessionless.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
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
    assertTrue(replies.get(7).startsWith("jetty-a [] (token refused: BAD_SIGNATURE)"), replies.get(7));
  }
}
