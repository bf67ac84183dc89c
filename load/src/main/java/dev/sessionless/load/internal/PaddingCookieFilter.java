package dev.sessionless.load.internal;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The ceiling baseline's filter: on top of the container's in-memory {@code HttpSession}, every
 * response sets an opaque cookie of a fixed length, a new value each time, with the attributes
 * the Sessionless filter writes ({@code Path=/; HttpOnly; SameSite=Lax}), and every request's
 * cookie is found and scanned to its end. No signing, no parsing, no state: what carrying a
 * session cookie of that length costs in bytes alone (the container parsing a longer {@code
 * Cookie} header and writing a longer {@code Set-Cookie}, the kernel, the client's cookie jar).
 * Its throughput over the plain sticky system's is therefore the most any session carried in a
 * cookie of that length could reach on the same machine, whatever its code.
 */
final class PaddingCookieFilter implements Filter {
  /** The cookie's name. */
  static final String NAME = "PAD";
  private static final int VALUES = 1024;
  private static final char[] ALPHABET =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".toCharArray();

  /** Whole {@code Set-Cookie} values, made once: a new one per response costs no work here. */
  private final String[] setCookies = new String[VALUES];
  private final AtomicInteger next = new AtomicInteger();

  /** A filter whose cookie value is {@code length} base64url characters. */
  PaddingCookieFilter(int length) {
    SplittableRandom random = new SplittableRandom(length);
    for (int i = 0; i < VALUES; i++) {
      StringBuilder b = new StringBuilder(NAME.length() + length + 40).append(NAME).append('=');
      for (int j = 0; j < length; j++) {
        b.append(ALPHABET[random.nextInt(ALPHABET.length)]);
      }
      setCookies[i] = b.append("; Path=/; HttpOnly; SameSite=Lax").toString();
    }
  }

  /** The length of the cookie a request carried, or -1 when it carried none. */
  static int carried(String cookieHeader) {
    if (cookieHeader == null) {
      return -1;
    }
    int at = cookieHeader.startsWith(NAME + "=") ? 0 : cookieHeader.indexOf("; " + NAME + "=");
    if (at < 0) {
      return -1;
    }
    int start = cookieHeader.indexOf('=', at) + 1;
    int end = cookieHeader.indexOf(';', start); // scans the whole value
    return (end < 0 ? cookieHeader.length() : end) - start;
  }

  @Override
  public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
    HttpServletRequest request = (HttpServletRequest) req;
    request.setAttribute(NAME, carried(request.getHeader("Cookie")));
    ((HttpServletResponse) res).addHeader("Set-Cookie", setCookies[next.getAndIncrement() & (VALUES - 1)]);
    chain.doFilter(req, res);
  }
}
