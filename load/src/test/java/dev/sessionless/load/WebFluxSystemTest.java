package dev.sessionless.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.load.internal.Cluster;
import dev.sessionless.load.internal.Faults;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The fourth system, {@code sessionless-webflux}: the shop on WebFlux with Sessionless's
 * token-backed {@code WebSession}, three real Reactor Netty nodes on loopback, round-robin. It
 * answers as the servlet shop does, its node kill is a real stop, and it loses nothing through
 * the {@code faults} profile's kill, restart and key rotation.
 */
class WebFluxSystemTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);
  /** The faults runs: short, as the README demo's test runs them. */
  private static final List<String> SHORT = List.of("faults", "--systems=sessionless-webflux", "--step=2500ms",
      "--warmup=300ms", "--system-warmup=800ms", "--users=6");

  private record Run(int code, String printed, String progress, JsonNode faults) {}

  private static Run faults(Path dir, String... more) throws IOException {
    List<String> args = new ArrayList<>(SHORT);
    args.addAll(List.of(more));
    args.add("--out=" + dir);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    int code = LoadTool.run(args.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(progress, true, StandardCharsets.UTF_8));
    JsonNode faults;
    try (Stream<Path> s = Files.list(dir)) {
      faults = new ObjectMapper().readTree(s.filter(f -> f.toString().endsWith(".json")).findFirst().orElseThrow()
          .toFile()).path("systems").path("sessionless-webflux").path("faults");
    }
    return new Run(code, out.toString(StandardCharsets.UTF_8), progress.toString(StandardCharsets.UTF_8), faults);
  }

  @Test
  @Timeout(60)
  void theFaultsProfileOnWebFluxLosesNoSessionNorCartThroughTheKillTheRestartAndTheRotationAndExitsZero(
      @TempDir Path dir) throws IOException {
    Run r = faults(dir);
    assertEquals(0, r.code(), r.progress() + r.printed());
    JsonNode f = r.faults();
    assertEquals(0, f.path("sessionsLost").asLong(), f.toPrettyString());
    assertEquals(0, f.path("cartsLost").asLong(), f.toPrettyString());
    assertTrue(f.path("journeysCompleted").asLong() >= 6, f.toPrettyString());
    List<String> events = new ArrayList<>();
    f.path("events").forEach(e -> events.add(e.asString()));
    assertEquals(3, events.size(), events.toString());
    assertTrue(events.get(0).endsWith("node 1 killed"), events.toString());
    assertTrue(events.get(1).endsWith("node 1 restarted (empty memory)"), events.toString());
    assertTrue(events.get(2).endsWith("signing key rotated (old key kept for verification)"), events.toString());
    String words = r.printed().replaceAll("\\s+", " ");
    assertTrue(words.contains("| Sessionless on WebFlux "), r.printed());
    assertTrue(words.contains("Reactor Netty"), r.printed());
  }

  /** The negative control: the rotation reaches the WebFlux nodes, so dropping the old key loses sessions. */
  @Test
  @Timeout(60)
  void aRotationThatDropsTheOldKeyMakesTheWebFluxSystemLoseSessionsAndExitThree(@TempDir Path dir) throws IOException {
    Run r = faults(dir, "--rotation=drop-old");
    assertEquals(3, r.code(), r.progress() + r.printed());
    assertTrue(r.faults().path("sessionsLost").asLong() > 0, r.faults().toPrettyString());
  }

  /** One exchange as the shop's client sees it. */
  private record Reply(int status, String body, String contentType, boolean writesSession) {}

  /** The same journey, round-robin over the cluster's nodes, with one cookie jar. */
  private static List<Reply> journey(Cluster cluster) throws Exception {
    List<String> paths = List.of("/shop/browse?item=sku-1", "/shop/browse?item=sku-2", "/shop/add?item=sku-3",
        "/shop/add?item=sku-4", "/shop/browse", "/shop/add", "/shop/checkout", "/shop/checkout", "/shop/browse?item=a",
        "/shop/browse?item=b", "/shop/browse?item=c", "/shop/browse?item=d", "/shop/unknown", "/shop", "/elsewhere");
    List<Reply> replies = new ArrayList<>();
    HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    Map<String, String> jar = new LinkedHashMap<>();
    List<URI> nodes = cluster.nodes();
    for (int i = 0; i < paths.size(); i++) {
      HttpRequest.Builder request = HttpRequest.newBuilder(nodes.get(i % nodes.size()).resolve(paths.get(i)))
          .timeout(TIMEOUT);
      if (!jar.isEmpty()) {
        request.header("Cookie", String.join("; ", jar.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
            .toList()));
      }
      HttpResponse<String> res = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
      for (String c : res.headers().allValues("set-cookie")) {
        String pair = c.split(";", 2)[0];
        int eq = pair.indexOf('=');
        if (pair.substring(eq + 1).isEmpty() || c.toLowerCase(Locale.ROOT).contains("max-age=0")) {
          jar.remove(pair.substring(0, eq));
        } else {
          jar.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
      }
      boolean ok = res.statusCode() == 200;
      replies.add(new Reply(res.statusCode(), ok ? res.body() : "",
          ok ? res.headers().firstValue("content-type").orElse("").toLowerCase(Locale.ROOT).replace(" ", "") : "",
          res.headers().allValues("set-cookie").stream().anyMatch(c -> c.startsWith("SESSIONLESS"))));
    }
    return replies;
  }

  @Test
  @Timeout(60)
  void theWebFluxShopAnswersTheSameJourneyExactlyAsTheServletShop() throws Exception {
    List<Reply> servlet;
    List<Reply> webflux;
    try (Cluster jetty = Cluster.start(Cluster.Kind.SESSIONLESS, 3)) {
      servlet = journey(jetty);
    }
    try (Cluster netty = Cluster.start(Cluster.Kind.SESSIONLESS_WEBFLUX, 3)) {
      webflux = journey(netty);
    }
    assertEquals("viewed=5 items=0", servlet.get(11).body(), "the journey exercises the shop: " + servlet);
    assertEquals(404, servlet.get(14).status(), servlet.toString());
    assertEquals(servlet, webflux);
  }

  /**
   * A kill is a real stop of the Netty node: its port refuses connections and a connection it had
   * open is closed; a fresh node on the same port reads the sessions the other nodes wrote.
   */
  @Test
  @Timeout(60)
  void aKilledWebFluxNodeRefusesConnectionsAndARestartedOneServesTheSameSessions() throws Exception {
    try (Cluster cluster = Cluster.start(Cluster.Kind.SESSIONLESS_WEBFLUX, 3)) {
      HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
      URI node = cluster.nodes().get(Faults.NODE);
      HttpResponse<String> first = get(client, node.resolve("/shop/add?item=kept"), null);
      assertEquals("viewed=0 items=1", first.body());
      String cookie = first.headers().firstValue("set-cookie").orElseThrow().split(";", 2)[0];
      cluster.stopNode(Faults.NODE);
      assertTrue(!cluster.isUp(Faults.NODE), "out of rotation");
      assertThrows(IOException.class, () -> get(client, node.resolve("/shop/browse?item=x"), cookie));
      assertEquals("viewed=1 items=1", get(client, cluster.nodes().get(0).resolve("/shop/browse?item=y"), cookie)
          .body(), "another node reads the session the killed one wrote");
      cluster.restartNode(Faults.NODE);
      assertEquals(node, cluster.nodes().get(Faults.NODE), "the same port");
      assertEquals("viewed=0 items=2", get(client, node.resolve("/shop/add?item=more"), cookie).body(),
          "the fresh node, with empty memory, reads the session its predecessor wrote");
    }
  }

  private static HttpResponse<String> get(HttpClient client, URI uri, String cookie)
      throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(TIMEOUT);
    if (cookie != null) {
      request.header("Cookie", cookie);
    }
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
