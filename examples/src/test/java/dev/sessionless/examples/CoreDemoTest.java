package dev.sessionless.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class CoreDemoTest {
  @Test
  void demoCarriesTheCartAcrossNodesAndRejectsTheTamperedToken() {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    CoreDemo.Cart cart = CoreDemo.run(new PrintStream(buf, true, StandardCharsets.UTF_8));
    String out = buf.toString(StandardCharsets.UTF_8);
    assertEquals(4, cart.items().size());
    assertTrue(out.contains("tampered token rejected: "), out);
  }
}
