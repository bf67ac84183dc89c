package dev.sessionless.spring.boot.it;

import java.io.IOException;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.HttpCookie;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A browser's part over real HTTP (forms are posted asking for HTML, as a browser does): the JDK client with a cookie jar (shared by every port of
 * 127.0.0.1, as a browser's is per host), redirects not followed so tests see them.
 */
public final class Browser {
  public final CookieManager cookies = new CookieManager(null, CookiePolicy.ACCEPT_ALL) {
    // Sends Secure cookies to http://127.0.0.1 and localhost, as browsers do (loopback is a secure
    // context to them); the JDK's jar sends them only over https, and session cookies are Secure.
    @Override
    public java.util.Map<String, java.util.List<String>> get(URI uri, java.util.Map<String, java.util.List<String>> h)
        throws IOException {
      String host = uri.getHost();
      if (!"http".equals(uri.getScheme()) || !("127.0.0.1".equals(host) || "localhost".equals(host))) {
        return super.get(uri, h);
      }
      try {
        return super.get(new URI("https", null, host, uri.getPort(), uri.getPath(), uri.getQuery(), null), h);
      } catch (java.net.URISyntaxException e) {
        throw new IllegalArgumentException(e);
      }
    }
  };
  private final HttpClient client = HttpClient.newBuilder().cookieHandler(cookies)
      .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(10)).build();

  public HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(uri).GET());
  }

  public HttpResponse<String> get(URI uri, String header, String value) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(uri).header(header, value).GET());
  }

  public HttpResponse<String> postForm(URI uri, Map<String, String> form) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(uri).header("Content-Type", "application/x-www-form-urlencoded")
        .header("Accept", "text/html")
        .POST(HttpRequest.BodyPublishers.ofString(formBody(form))));
  }

  /** A POST of a form with HTTP Basic credentials. */
  public HttpResponse<String> postForm(URI uri, Map<String, String> form, String user, String password)
      throws IOException, InterruptedException {
    String basic = java.util.Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    return send(HttpRequest.newBuilder(uri).header("Content-Type", "application/x-www-form-urlencoded")
        .header("Authorization", "Basic " + basic).POST(HttpRequest.BodyPublishers.ofString(formBody(form))));
  }

  private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
    return client.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
  }

  /** The value of the cookie {@code name} the jar would send, if any. */
  public Optional<String> cookie(String name) {
    return cookies.getCookieStore().getCookies().stream().filter(c -> c.getName().equals(name))
        .map(HttpCookie::getValue).findFirst();
  }

  private static String formBody(Map<String, String> form) {
    return form.entrySet().stream()
        .map(e -> enc(e.getKey()) + "=" + enc(e.getValue())).collect(Collectors.joining("&"));
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }
}
