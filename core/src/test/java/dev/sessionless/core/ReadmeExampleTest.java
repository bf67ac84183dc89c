package dev.sessionless.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.testing.ReadmeBlocks;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Keeps the README examples compiling and true: the code below is the README's, line for line. */
class ReadmeExampleTest {
  record Cart(List<String> items) {}

  @Test
  void readmeExampleRunsAndCarriesTheCart() {
    Cart cart = new Cart(List.of("mug"));
    // readme-example:start
    KeySet keys = KeySet.of(TokenKey.generate("2026-11", Algorithm.HS256));
    TokenCodec codec = TokenCodec.builder()
        .keys(keys).issuer("https://shop.example").audience("shop")
        .timeToLive(Duration.ofMinutes(30))
        .build();
    String token = codec.encode(Claims.builder().subject("alice").put("cart", cart).build());
    SessionToken session = codec.decode(token);           // or TokenException with a reason
    Cart same = session.get("cart", Cart.class).orElseThrow();
    String next = codec.encode(session.toClaims().put("step", 2).build());
    // readme-example:end
    assertEquals(cart, same);
    assertEquals(2, codec.decode(next).get("step", Integer.class).orElseThrow());
    assertEquals(session.id(), codec.decode(next).id());
  }

  @Test
  void rootAndCoreReadmesShowExactlyTheCodeThisTestRuns() throws IOException {
    List<String> tested = ReadmeBlocks.java(Path.of("src/test/java/dev/sessionless/core/ReadmeExampleTest.java"),
        "readme-example");
    for (Path readme : List.of(Path.of("../README.md"), Path.of("README.md"))) {
      List<String> shown = ReadmeBlocks.markdown(readme, "readme-example");
      assertTrue(!shown.isEmpty(), readme + " has no readme-example block");
      assertEquals(tested, shown, readme + " drifted from ReadmeExampleTest");
    }
  }
}
