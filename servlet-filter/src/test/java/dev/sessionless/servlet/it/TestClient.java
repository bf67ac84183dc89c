package dev.sessionless.servlet.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** A small HTTP client that keeps cookies itself, so tests see every Set-Cookie. */
public final class TestClient {
  /** One response. */
  public static final class Reply {
    public final int status;
    public final String body;
    public final List<String> setCookies;
    public final HttpResponse<String> raw;

    Reply(HttpResponse<String> raw) {
      this.raw = raw;
      this.status = raw.statusCode();
      this.body = raw.body();
      this.setCookies = raw.headers().allValues("set-cookie");
    }

    /** The value of a line "key=value" in the body, or null. */
    public String get(String key) {
      for (String line : body.split("\n")) {
        if (line.startsWith(key + "=")) {
          return line.substring(key.length() + 1);
        }
      }
      return null;
    }

    /** The Set-Cookie headers for cookie {@code name} exactly. */
    public List<String> setCookie(String name) {
      return setCookies.stream().filter(h -> h.startsWith(name + "=")).collect(Collectors.toList());
    }

    public String header(String name) {
      return raw.headers().firstValue(name).orElse(null);
    }
  }

  private final HttpClient http = HttpClient.newBuilder()
      .followRedirects(HttpClient.Redirect.NEVER).version(HttpClient.Version.HTTP_1_1).build();
  private final String base;
  /** The cookie jar: name to value, in arrival order. */
  public final Map<String, String> cookies = new LinkedHashMap<>();
  /** Extra request headers sent with every request. */
  public final Map<String, String> headers = new LinkedHashMap<>();

  public TestClient(Container container) {
    this.base = "http://127.0.0.1:" + container.port();
  }

  public Reply get(String pathAndQuery) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + pathAndQuery)).timeout(Duration.ofSeconds(30)).GET();
    if (!cookies.isEmpty()) {
      b.header("Cookie", cookies.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
          .collect(Collectors.joining("; ")));
    }
    headers.forEach(b::header);
    try {
      Reply r = new Reply(http.send(b.build(), HttpResponse.BodyHandlers.ofString()));
      for (String h : r.setCookies) {
        store(h);
      }
      return r;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private void store(String header) {
    String[] parts = header.split(";");
    String nv = parts[0].trim();
    int eq = nv.indexOf('=');
    String name = nv.substring(0, eq);
    String value = nv.substring(eq + 1);
    boolean expired = false;
    for (int i = 1; i < parts.length; i++) {
      String p = parts[i].trim().toLowerCase();
      if (p.equals("max-age=0")) {
        expired = true;
      }
    }
    if (expired || value.isEmpty()) {
      cookies.remove(name);
    } else {
      cookies.put(name, value);
    }
  }

  /** Names of cookies currently held. */
  public List<String> cookieNames() {
    return new ArrayList<>(cookies.keySet());
  }
}
