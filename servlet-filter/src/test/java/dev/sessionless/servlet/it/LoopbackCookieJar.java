package dev.sessionless.servlet.it;

import java.io.IOException;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Map;

/**
 * A cookie jar that, like a browser, sends {@code Secure} cookies to {@code http://localhost}
 * and {@code http://127.0.0.1} (a "potentially trustworthy" origin to browsers). The JDK's
 * {@link CookieManager} sends them only over https, so a test client over plain loopback http
 * would silently lose the session cookie, now {@code Secure} by default.
 */
public final class LoopbackCookieJar extends CookieManager {
  /** A jar that accepts every cookie. */
  public LoopbackCookieJar() {
    super(null, CookiePolicy.ACCEPT_ALL);
  }

  @Override
  public Map<String, List<String>> get(URI uri, Map<String, List<String>> requestHeaders) throws IOException {
    return super.get(loopback(uri) ? asHttps(uri) : uri, requestHeaders);
  }

  private static boolean loopback(URI uri) {
    String host = uri.getHost();
    return "http".equalsIgnoreCase(uri.getScheme()) && host != null
        && (host.equals("localhost") || host.equals("127.0.0.1") || host.equals("[::1]"));
  }

  private static URI asHttps(URI uri) {
    try {
      return new URI("https", uri.getUserInfo(), uri.getHost(), uri.getPort(), uri.getPath(), uri.getQuery(),
          uri.getFragment());
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(e);
    }
  }
}
