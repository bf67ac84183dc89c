package dev.sessionless.devicebinding;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A real Chromium, started headless by the test and driven over the DevTools protocol (CDP) with
 * the JDK's WebSocket client: no WebDriver, no browser download. The process is this test's own
 * child with its own throw-away profile, and {@link #close()} ends exactly that process.
 *
 * <p>Used only by the {@code browser} profile's tests ({@code -Pbrowser}); {@link #require()}
 * fails, naming the install command, when no Chromium is on this machine.
 */
final class Chromium implements AutoCloseable {
  /**
   * The switches that turn on standard DBSC on Linux without a TPM, as Chromium's own
   * {@code chrome://flags} entries "enable-standard-device-bound-session-credentials" ("Enabled -
   * Without Origin Trial tokens") and "enable-bound-session-credentials-software-keys-for-manual-
   * testing" expand to in Chromium 156 (as its net log records its command line), plus the
   * DevTools events for DBSC and persistence. Chromium also needs HTTPS with a certificate that
   * verifies: see {@code ChromiumDbscTest}.
   */
  static final List<String> DBSC_FLAGS = List.of(
      "--enable-features=DeviceBoundSessions:RequireOriginTrialTokens/false/RefreshQuota/false"
          + "/CheckSubdomainRegistration/false,EnableBoundSessionCredentialsSoftwareKeysForManualTesting,"
          + "DeviceBoundSessionsDevTools,PersistDeviceBoundSessions");

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final long WAIT_SECONDS = 20;

  private final Process process;
  private final Path profile;
  private final WebSocket socket;
  private final Deque<String> stderrTail = new ArrayDeque<>();
  private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
  private final AtomicInteger ids = new AtomicInteger();
  /** Every CDP event received, in order (method and params). */
  final List<JsonNode> events = new CopyOnWriteArrayList<>();

  /**
   * The Chromium executable: the system property {@code sessionless.chromium} (set by the
   * {@code browser} profile, default {@code chromium}) as a path or a name on {@code PATH}.
   * Fails the test (it does not skip it) when there is none.
   */
  static Path require() {
    String name = System.getProperty("sessionless.chromium", "chromium");
    Path direct = Path.of(name);
    if (name.contains("/") && Files.isExecutable(direct)) {
      return direct;
    }
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      Path p = Path.of(dir.isEmpty() ? "." : dir, name);
      if (Files.isExecutable(p)) {
        return p;
      }
    }
    return fail("no Chromium executable '" + name + "' found: the browser profile (-Pbrowser) runs a real"
        + " Chromium. Install Debian's with `apt-get install -y chromium` (bookworm-security has"
        + " 156.0.8078.108; about 480 MB), or point -Dsessionless.chromium=/path/to/chrome at one.");
  }

  /** Starts {@code exe} headless with {@code flags} and connects to its DevTools endpoint. */
  static Chromium launch(Path exe, List<String> flags) throws IOException, InterruptedException {
    return new Chromium(exe, flags);
  }

  private Chromium(Path exe, List<String> flags) throws IOException, InterruptedException {
    profile = Files.createTempDirectory("sessionless-chromium-");
    List<String> cmd = new ArrayList<>(List.of(exe.toString(), "--headless=new", "--no-sandbox", "--no-first-run",
        "--no-default-browser-check", "--disable-gpu", "--user-data-dir=" + profile, "--remote-debugging-port=0"));
    cmd.addAll(flags);
    cmd.add("about:blank");
    process = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    CompletableFuture<String> endpoint = new CompletableFuture<>();
    Thread reader = new Thread(() -> readStderr(endpoint), "chromium-stderr");
    reader.setDaemon(true);
    reader.start();
    String ws;
    try {
      ws = endpoint.get(WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (Exception e) {
      close();
      throw new IllegalStateException("Chromium printed no DevTools endpoint within " + WAIT_SECONDS + " s; its"
          + " last output: " + stderrTail(), e);
    }
    try {
      socket = HttpClient.newHttpClient().newWebSocketBuilder().buildAsync(URI.create(ws), new Listener())
          .get(WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (Exception e) {
      close();
      throw new IllegalStateException("could not connect to Chromium's DevTools at " + ws, e);
    }
  }

  private void readStderr(CompletableFuture<String> endpoint) {
    try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getErrorStream(),
        StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        synchronized (stderrTail) {
          stderrTail.addLast(line);
          if (stderrTail.size() > 40) {
            stderrTail.removeFirst();
          }
        }
        int at = line.indexOf("DevTools listening on ");
        if (at >= 0) {
          endpoint.complete(line.substring(at + "DevTools listening on ".length()).trim());
        }
      }
    } catch (IOException e) {
      endpoint.completeExceptionally(e);
    }
    endpoint.completeExceptionally(new IOException("Chromium closed its error stream"));
  }

  /** Chromium's last lines on standard error, for a failure message. */
  String stderrTail() {
    synchronized (stderrTail) {
      return String.join("\n", stderrTail);
    }
  }

  /** The DBSC events Chromium reported over DevTools, as JSON lines (for a failure message). */
  String dbscEvents() {
    StringBuilder b = new StringBuilder();
    for (JsonNode e : events) {
      if (e.path("method").asString("").toLowerCase(Locale.ROOT).contains("boundsession")) {
        b.append(e).append('\n');
      }
    }
    return b.length() == 0 ? "(none)" : b.toString();
  }

  /** Sends a CDP command (to the page session {@code session}, or the browser when null) and waits for its result. */
  JsonNode send(String method, ObjectNode params, String session) {
    int id = ids.incrementAndGet();
    ObjectNode msg = JSON.createObjectNode().put("id", id).put("method", method);
    msg.set("params", params == null ? JSON.createObjectNode() : params);
    if (session != null) {
      msg.put("sessionId", session);
    }
    CompletableFuture<JsonNode> answer = new CompletableFuture<>();
    pending.put(id, answer);
    socket.sendText(msg.toString(), true).join();
    JsonNode reply;
    try {
      reply = answer.get(WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("no DevTools answer to " + method + " within " + WAIT_SECONDS + " s", e);
    } finally {
      pending.remove(id);
    }
    if (reply.has("error")) {
      throw new IllegalStateException("DevTools refused " + method + ": " + reply.get("error"));
    }
    return reply.path("result");
  }

  /** A new tab attached for commands, with the Network domain and DBSC events on, showing {@code url}. */
  Page open(String url) {
    String target = send("Target.createTarget", params().put("url", "about:blank"), null).path("targetId").asString();
    String session = send("Target.attachToTarget", params().put("targetId", target).put("flatten", true), null)
        .path("sessionId").asString();
    Page page = new Page(session);
    send("Network.enable", null, session);
    send("Network.enableDeviceBoundSessions", params().put("enable", true), session);
    page.navigate(url);
    return page;
  }

  static ObjectNode params() {
    return JSON.createObjectNode();
  }

  /** One tab. */
  final class Page {
    final String session;

    private Page(String session) {
      this.session = session;
    }

    /** Loads {@code url} and waits until its load event. */
    void navigate(String url) {
      send("Page.enable", null, session);
      int before = loads();
      send("Page.navigate", params().put("url", url), session);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
      while (loads() == before) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("no load event for " + url + " within " + WAIT_SECONDS + " s");
        }
        pause();
      }
    }

    private int loads() {
      int n = 0;
      for (JsonNode e : events) {
        if ("Page.loadEventFired".equals(e.path("method").asString("")) && session.equals(e.path("sessionId")
            .asString(""))) {
          n++;
        }
      }
      return n;
    }

    /** Evaluates {@code expression} in the page, awaiting a promise, and returns its value as text. */
    String evaluate(String expression) {
      JsonNode r = send("Runtime.evaluate", params().put("expression", expression).put("awaitPromise", true)
          .put("returnByValue", true), session);
      if (r.has("exceptionDetails")) {
        throw new IllegalStateException("the page threw: " + r.get("exceptionDetails"));
      }
      return r.path("result").path("value").asString("");
    }
  }

  static void pause() {
    try {
      Thread.sleep(50);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  private final class Listener implements WebSocket.Listener {
    private final StringBuilder partial = new StringBuilder();

    @Override
    public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
      partial.append(data);
      if (last) {
        JsonNode msg = JSON.readTree(partial.toString());
        partial.setLength(0);
        if (msg.has("id")) {
          CompletableFuture<JsonNode> f = pending.get(msg.get("id").asInt());
          if (f != null) {
            f.complete(msg);
          }
        } else {
          events.add(msg);
        }
      }
      ws.request(1);
      return null;
    }
  }

  /** Ends the Chromium process this object started (and its children) and deletes its profile. */
  @Override
  public void close() {
    if (socket != null) {
      socket.abort();
    }
    process.descendants().forEach(ProcessHandle::destroy);
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try (Stream<Path> files = Files.walk(profile)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException ignored) {
      // a temporary directory left behind is harmless
    }
  }
}
