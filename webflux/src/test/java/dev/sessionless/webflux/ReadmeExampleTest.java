package dev.sessionless.webflux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.sessionless.core.KeySet;
import dev.sessionless.testing.ReadmeBlocks;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ReactorHttpHandlerAdapter;
import org.springframework.web.server.WebHandler;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/** Keeps the README's example compiling and working: the code between the markers is the README's. */
@Timeout(60)
class ReadmeExampleTest {
  /** The application's registered type. */
  public record Cart(List<String> items) {}

  @Test
  void readmeExampleServesASessionOverReactorNetty(@TempDir Path dir) throws Exception {
    Path keyFile = dir.resolve("keys.jwks");
    Files.writeString(keyFile, Fixtures.KEYS.toJwksWithSecrets());
    WebHandler handler = exchange -> exchange.getSession().flatMap(s -> {
      Cart cart = (Cart) s.getAttributes().getOrDefault("cart", new Cart(List.of()));
      s.getAttributes().put("cart", new Cart(append(cart.items(), "tea")));
      return exchange.getResponse().writeWith(Mono.just(exchange.getResponse().bufferFactory()
          .wrap(String.valueOf(cart.items().size()).getBytes(StandardCharsets.UTF_8))));
    });
    // readme-example:start
    SessionlessWebSessionManager sessions = SessionlessWebSessionManager.builder()
        .keys(KeySet.fromJwks(Files.readString(keyFile)))
        .issuer("https://shop.example").audience("shop")
        .maxInactiveInterval(Duration.ofMinutes(30))
        .attributeTypes(Cart.class)                     // plus JDK value types
        .build();
    HttpHandler http = WebHttpHandlerBuilder.webHandler(handler).sessionManager(sessions).build();
    // readme-example:end
    ServerCodecConfigurer.create(); // see NettyApp: not first on the event loop
    DisposableServer server = HttpServer.create().host("127.0.0.1").port(0)
        .handle(new ReactorHttpHandlerAdapter(http)).bindNow(Duration.ofSeconds(30));
    try {
      CookieClient c = new CookieClient();
      String base = "http://127.0.0.1:" + server.port();
      assertEquals("0", c.get(base + "/").body());
      assertEquals("1", c.get(base + "/").body());
      assertEquals("2", c.get(base + "/").body());
    } finally {
      server.disposeNow(Duration.ofSeconds(10));
    }
  }

  private static List<String> append(List<String> items, String item) {
    List<String> more = new java.util.ArrayList<>(items);
    more.add(item);
    return more;
  }

  @Test
  void readmeShowsExactlyTheCodeThisTestRuns() throws Exception {
    List<String> tested = ReadmeBlocks.java(
        Path.of("src/test/java/dev/sessionless/webflux/ReadmeExampleTest.java"), "readme-example");
    List<String> shown = ReadmeBlocks.markdown(Path.of("README.md"), "readme-example");
    assertFalse(shown.isEmpty(), "README.md has no readme-example block");
    assertEquals(tested, shown, "README.md drifted from ReadmeExampleTest");
  }
}
