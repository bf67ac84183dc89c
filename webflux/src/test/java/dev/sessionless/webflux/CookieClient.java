package dev.sessionless.webflux;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * An HTTP client that keeps cookies as a browser on {@code http://localhost} does, {@code
 * Secure} ones included (the JDK's CookieManager would not send those over http): each {@code
 * Set-Cookie} replaces the cookie of its name, and {@code Max-Age=0} deletes it.
 */
final class CookieClient {
  final Map<String, String> cookies = new LinkedHashMap<>();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  /** A response: status, body, and the Set-Cookie values it carried. */
  record Answer(int status, String body, List<String> setCookies, java.net.http.HttpHeaders headers) {}

  Answer get(String url) throws IOException, InterruptedException {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30));
    if (!cookies.isEmpty()) {
      b.header("Cookie", cookies.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
          .collect(Collectors.joining("; ")));
    }
    HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    List<String> set = r.headers().allValues("Set-Cookie");
    for (String h : set) {
      String pair = h.split(";", 2)[0];
      int eq = pair.indexOf('=');
      String name = pair.substring(0, eq).trim();
      if (h.contains("Max-Age=0")) {
        cookies.remove(name);
      } else {
        cookies.put(name, pair.substring(eq + 1));
      }
    }
    return new Answer(r.statusCode(), r.body(), set, r.headers());
  }
}
