package dev.sessionless.propagation;

import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Map;

/**
 * A browser's cookie jar for tests over plain http on loopback: it sends {@code Secure} cookies
 * to {@code http://127.0.0.1} and {@code localhost}, as browsers do (they treat loopback as a
 * secure context). The JDK's {@link CookieManager} sends them only over https, and the servlet
 * filter's session cookies are always {@code Secure}.
 */
final class LoopbackCookies extends CookieManager {
  @Override
  public Map<String, List<String>> get(URI uri, Map<String, List<String>> headers) throws IOException {
    String host = uri.getHost();
    if (!"http".equals(uri.getScheme()) || !("127.0.0.1".equals(host) || "localhost".equals(host))) {
      return super.get(uri, headers);
    }
    try {
      return super.get(new URI("https", null, host, uri.getPort(), uri.getPath(), uri.getQuery(), null), headers);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(e);
    }
  }
}
