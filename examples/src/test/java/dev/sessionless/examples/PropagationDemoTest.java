package dev.sessionless.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class PropagationDemoTest {
  @Test
  void demoCarriesTheSessionEdgeToOrdersToBillingNarrowingOnOneTraceAndRefusesTheBrowserCookie() throws Exception {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    String answer = PropagationDemo.run(new PrintStream(buf, true, StandardCharsets.UTF_8));
    String out = buf.toString(StandardCharsets.UTF_8);
    assertEquals("alice of acme, via [https://orders.internal, https://edge.example]", answer, out);
    List<String> lines = Arrays.stream(out.split("\n")).filter(l -> l.startsWith("[")).collect(Collectors.toList());
    assertEquals(3, lines.size(), out);
    String trace = lines.get(0).split(" ")[1];
    assertTrue(trace.matches("trace=[0-9a-f]{32}"), out);
    assertTrue(lines.stream().allMatch(l -> l.split(" ")[1].equals(trace)), "one trace id in every service: " + out);
    assertTrue(lines.get(1).contains("state=[cart, tenant]") || lines.get(1).contains("state=[tenant, cart]"), out);
    assertTrue(lines.get(2).contains("state=[tenant]"), "billing sees the tenant only: " + out);
    assertTrue(out.contains("browser cookie sent straight to orders: 401 Bearer"), out);
  }
}
