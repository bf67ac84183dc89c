package dev.sessionless.devicebinding.servlet;

import dev.sessionless.devicebinding.SimulatedBrowser;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;

/**
 * A client over real HTTP on loopback with its own cookie jar, driven by a test's clock: with a
 * {@link SimulatedBrowser} it is a DBSC browser (registers when offered, refreshes the bound
 * cookie before a request when it has lapsed, as Chromium defers such requests); without one it
 * is a browser without DBSC, or a thief replaying copied cookies. Public (in the test-jar) for
 * the Boot tests.
 */
public final class LoopbackDevice {
  private static final HttpClient HTTP = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
      .connectTimeout(Duration.ofSeconds(10)).build();

  /** One answer. */
  public record Reply(int status, String body, HttpHeaders headers) {
    /** The first value of a response header, or null. */
    public String header(String name) {
      return headers.firstValue(name).orElse(null);
    }
  }

  private record Cookie(String value, String path, Instant expires) {}

  /** The DBSC side, or null for a client without DBSC. */
  public final SimulatedBrowser browser;
  private final Clock clock;
  private final Map<String, Cookie> jar = new LinkedHashMap<>();
  private final boolean ignoreExpiry;
  private final String boundCookie;
  /** How many refreshes were answered 403 (a challenge first). */
  public int challenged;
  /** How many refreshes succeeded. */
  public int refreshes;

  /** A client; {@code algorithm} ES256 or RS256 for a DBSC browser, null for none. */
  public LoopbackDevice(String algorithm, Clock clock, String boundCookie) {
    this(algorithm == null ? null : new SimulatedBrowser(algorithm, clock), clock, false, boundCookie);
  }

  private LoopbackDevice(SimulatedBrowser browser, Clock clock, boolean ignoreExpiry, String boundCookie) {
    this.browser = browser;
    this.clock = clock;
    this.ignoreExpiry = ignoreExpiry;
    this.boundCookie = boundCookie;
  }

  /** A thief holding a copy of every cookie this device has now, and no key; it sends them even once expired. */
  public LoopbackDevice copyCookies() {
    LoopbackDevice thief = new LoopbackDevice(null, clock, true, boundCookie);
    thief.jar.putAll(jar);
    return thief;
  }

  /** The same thief, holding only the named cookies of this device. */
  public LoopbackDevice copyCookies(String... names) {
    LoopbackDevice thief = new LoopbackDevice(null, clock, true, boundCookie);
    for (String n : names) {
      if (jar.containsKey(n)) {
        thief.jar.put(n, jar.get(n));
      }
    }
    return thief;
  }

  /** A request; cookies from the jar, Set-Cookie into it. If it offers registration and this is a DBSC browser, registers. */
  public Reply send(String base, String method, String path, Map<String, String> headers, String form) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
    headers.forEach(b::header);
    String cookies = cookieHeader(path);
    if (!cookies.isEmpty()) {
      b.header("Cookie", cookies);
    }
    if (form != null) {
      b.header("Content-Type", "application/x-www-form-urlencoded");
    }
    b.method(method, form == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(form));
    HttpResponse<String> r;
    try {
      r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    r.headers().allValues("Set-Cookie").forEach(this::store);
    Reply reply = new Reply(r.statusCode(), r.body(), r.headers());
    String offer = reply.header("Secure-Session-Registration");
    if (offer != null && browser != null) {
      register(base, offer);
    }
    return reply;
  }

  /** A GET; a DBSC browser whose bound cookie has lapsed refreshes first. */
  public Reply get(String base, String path) {
    if (browser != null && browser.sessionId != null && !has(boundCookie)) {
      Reply r = refresh(base);
      if (r.status() != 200) {
        throw new AssertionError("refresh answered " + r.status() + ": " + r.body());
      }
    }
    return send(base, "GET", path, Map.of(), null);
  }

  /** Registers with the offer (the browser's background registration). */
  public Reply register(String base, String offer) {
    String proof = browser.register(offer, null);
    String path = SimulatedBrowser.readRegistration(offer).get(0).params().get("path");
    Reply r = send(base, "POST", path, Map.of("Secure-Session-Response", proof), null);
    if (r.status() == 200) {
      browser.accept(r.body());
      String challenge = r.header("Secure-Session-Challenge");
      if (challenge != null) {
        browser.takeChallenge(challenge);
      }
    }
    return r;
  }

  /** The browser's refresh: with the cached challenge's proof, or without, then again after a 403. */
  public Reply refresh(String base) {
    Map<String, String> h = new LinkedHashMap<>();
    h.put("Sec-Secure-Session-Id", SimulatedBrowser.quote(browser.sessionId));
    if (browser.cachedChallenge != null) {
      h.put("Secure-Session-Response", browser.refreshProof(null));
    }
    Reply r = send(base, "POST", browser.refreshUrl, h, null);
    if (r.status() == 403 && r.header("Secure-Session-Challenge") != null) {
      challenged++;
      browser.takeChallenge(r.header("Secure-Session-Challenge"));
      h.put("Secure-Session-Response", browser.refreshProof(null));
      r = send(base, "POST", browser.refreshUrl, h, null);
    }
    if (r.status() == 200) {
      refreshes++;
      String next = r.header("Secure-Session-Challenge");
      if (next != null) {
        browser.takeChallenge(next);
      }
    }
    return r;
  }

  /** Whether the jar holds a live cookie of that name. */
  public boolean has(String name) {
    Cookie c = jar.get(name);
    return c != null && (ignoreExpiry || clock.instant().isBefore(c.expires()));
  }

  /** The value of a cookie in the jar, or null. */
  public String cookie(String name) {
    Cookie c = jar.get(name);
    return c == null ? null : c.value();
  }

  private String cookieHeader(String path) {
    StringJoiner j = new StringJoiner("; ");
    String p = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
    jar.forEach((name, c) -> {
      if ((ignoreExpiry || clock.instant().isBefore(c.expires())) && (p.equals(c.path()) || c.path().equals("/")
          || p.startsWith(c.path().endsWith("/") ? c.path() : c.path() + "/"))) {
        j.add(name + "=" + c.value());
      }
    });
    return j.toString();
  }

  private void store(String setCookie) {
    String[] parts = setCookie.split(";");
    int eq = parts[0].indexOf('=');
    String name = parts[0].substring(0, eq).trim();
    String value = parts[0].substring(eq + 1).trim();
    String path = "/";
    Instant expires = Instant.MAX;
    for (int i = 1; i < parts.length; i++) {
      String a = parts[i].trim();
      String lower = a.toLowerCase(java.util.Locale.ROOT);
      if (lower.startsWith("path=")) {
        path = a.substring(5);
      } else if (lower.startsWith("max-age=")) {
        expires = clock.instant().plusSeconds(Long.parseLong(a.substring(8)));
      } else if (lower.startsWith("expires=") && a.contains("1970")) {
        expires = Instant.EPOCH;
      }
    }
    if (!expires.isAfter(clock.instant()) || value.isEmpty()) {
      jar.remove(name);
    } else {
      jar.put(name, new Cookie(value, path, expires));
    }
  }
}
