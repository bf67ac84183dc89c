package dev.sessionless.gateway;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A browser against the gateway on loopback: keeps the cookies it is sent (by name, as one
 * host-only jar), sends them back, follows no redirect, and can log in through Spring Security's
 * form (reading the CSRF token from the login page, as a browser posts it).
 */
final class Browser {
  private static final Pattern CSRF = Pattern.compile("name=\"_csrf\"\\s+type=\"hidden\"\\s+value=\"([^\"]+)\"");
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private final URI root;
  /** The cookie jar; tests add cookies of their own to it. */
  final Map<String, String> cookies = new LinkedHashMap<>();

  Browser(URI root) {
    this.root = root;
  }

  HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(root.resolve(path)).GET());
  }

  /** A GET with one header of the test's besides the cookies. */
  HttpResponse<String> get(String path, String header, String value) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(root.resolve(path)).header(header, value).GET());
  }

  /** Logs in with Spring Security's form login; returns the answer to the form's POST. */
  HttpResponse<String> login(String user, String password) throws IOException, InterruptedException {
    HttpResponse<String> page = get("/login");
    Matcher m = CSRF.matcher(page.body());
    if (!m.find()) {
      throw new AssertionError("no CSRF field on the login page: " + page.statusCode() + " " + page.body());
    }
    String form = "username=" + enc(user) + "&password=" + enc(password) + "&_csrf=" + enc(m.group(1));
    return send(HttpRequest.newBuilder(root.resolve("/login"))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(form)));
  }

  private HttpResponse<String> send(HttpRequest.Builder b) throws IOException, InterruptedException {
    b.timeout(Duration.ofSeconds(20));
    if (!cookies.isEmpty()) {
      b.header("Cookie", cookies.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
          .collect(Collectors.joining("; ")));
    }
    HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    for (String set : r.headers().allValues("Set-Cookie")) {
      String pair = set.split(";", 2)[0];
      int eq = pair.indexOf('=');
      String name = pair.substring(0, eq).strip();
      String value = pair.substring(eq + 1).strip();
      if (value.isEmpty() || set.toLowerCase(java.util.Locale.ROOT).contains("max-age=0")) {
        cookies.remove(name);
      } else {
        cookies.put(name, value);
      }
    }
    return r;
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  /** The answer's {@code key=value} lines, as {@link LoopbackService} writes them. */
  static Map<String, String> lines(HttpResponse<String> r) {
    Map<String, String> m = new LinkedHashMap<>();
    for (String line : r.body().split("\n")) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        m.put(line.substring(0, eq), line.substring(eq + 1));
      }
    }
    return m;
  }
}
