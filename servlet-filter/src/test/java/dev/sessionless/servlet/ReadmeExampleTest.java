package dev.sessionless.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.servlet.it.AppServlet;
import dev.sessionless.servlet.it.Cart;
import dev.sessionless.servlet.it.Container;
import dev.sessionless.servlet.it.TestClient;
import dev.sessionless.testing.ReadmeBlocks;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterRegistration;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Keeps the README example compiling and true: the setup below is the README's, line for line. */
class ReadmeExampleTest {
  @Test
  void readmeSetupGivesAnApplicationATokenSession() throws IOException {
    Path keyFile = Files.createTempFile("keys", ".jwks");
    Files.writeString(keyFile, KeySet.of(TokenKey.generate("2026-11", Algorithm.DIR_A256GCM)).toJwksWithSecrets());
    try (Container container = Container.jetty((classes, ctx) -> {
      try {
        // readme-example:start
        SessionlessFilter filter = SessionlessFilter.builder()
            .keys(KeySet.fromJwks(Files.readString(keyFile)))
            .issuer("https://shop.example").audience("shop")
            .maxInactiveInterval(Duration.ofMinutes(30))
            .attributeTypes(Cart.class)                     // plus JDK value types
            .build();
        FilterRegistration.Dynamic reg = ctx.addFilter("sessionless", filter);
        reg.setAsyncSupported(true);
        reg.addMappingForUrlPatterns(EnumSet.allOf(DispatcherType.class), false, "/*");
        // readme-example:end
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
      ctx.addServlet("app", new AppServlet()).addMapping("/s/*");
    })) {
      TestClient client = new TestClient(container);
      client.get("/s/setcart?value=mug");
      assertEquals("[mug]:Cart", client.get("/s/read").get("attr.cart"));
      assertTrue(client.cookies.containsKey("SESSIONLESS"));
    }
  }

  @Test
  void readmeShowsExactlyTheCodeThisTestRuns() throws IOException {
    List<String> tested = ReadmeBlocks.java(Path.of("src/test/java/dev/sessionless/servlet/ReadmeExampleTest.java"),
        "readme-example");
    List<String> shown = ReadmeBlocks.markdown(Path.of("README.md"), "readme-example");
    assertTrue(!shown.isEmpty(), "README.md has no readme-example block");
    assertEquals(tested, shown, "README.md drifted from ReadmeExampleTest");
  }
}
