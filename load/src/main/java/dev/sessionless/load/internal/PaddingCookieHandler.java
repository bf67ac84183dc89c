package dev.sessionless.load.internal;

import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The ceiling baseline's handler, in front of a node's servlet context with the container's
 * in-memory {@code HttpSession}: every response sets an opaque cookie of a fixed length, a new
 * value each time, with the attributes the Sessionless filter writes ({@code Path=/; HttpOnly;
 * SameSite=Lax}), and every request's cookie is found in the raw {@code Cookie} header, scanned to
 * its end and taken out of the header the context sees. No signing, no parsing, no state: what
 * carrying a session cookie of that length costs in bytes alone (Jetty's HTTP parser reading a
 * longer {@code Cookie} header, its generator writing a longer {@code Set-Cookie}, the kernel,
 * the client's cookie jar).
 *
 * <p>Why the cookie is taken out: Jetty's session handler finds {@code JSESSIONID} by parsing
 * every cookie of the request, character by character. A session that reads its own cookie from
 * the raw header, as the Sessionless filter does, never has the container parse it; left in,
 * the padding would cost this baseline ~7.6 µs a request that no such session pays (measured
 * with perf), and the ceiling would read too low.
 *
 * <p>Its throughput over the plain sticky system's is therefore the most any session carried in
 * a cookie of that length could reach on the same machine, whatever its code.
 */
final class PaddingCookieHandler extends Handler.Wrapper {
  /** The cookie's name. */
  static final String NAME = "PAD";
  private static final int VALUES = 1024;
  private static final char[] ALPHABET =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".toCharArray();

  /** Whole {@code Set-Cookie} values, made once: a new one per response costs no work here. */
  private final String[] setCookies = new String[VALUES];
  private final AtomicInteger next = new AtomicInteger();

  /** A handler whose cookie value is {@code length} base64url characters, in front of {@code context}. */
  PaddingCookieHandler(int length, Handler context) {
    super(context);
    SplittableRandom random = new SplittableRandom(length);
    for (int i = 0; i < VALUES; i++) {
      StringBuilder b = new StringBuilder(NAME.length() + length + 40).append(NAME).append('=');
      for (int j = 0; j < length; j++) {
        b.append(ALPHABET[random.nextInt(ALPHABET.length)]);
      }
      setCookies[i] = b.append("; Path=/; HttpOnly; SameSite=Lax").toString();
    }
  }

  /**
   * The {@code Cookie} header without this handler's cookie: the header itself when it carries
   * none, {@code null} when nothing else is left.
   */
  static String without(String cookieHeader) {
    if (cookieHeader == null) {
      return null;
    }
    int at = cookieHeader.startsWith(NAME + "=") ? 0 : cookieHeader.indexOf("; " + NAME + "=");
    if (at < 0) {
      return cookieHeader;
    }
    int end = cookieHeader.indexOf(';', cookieHeader.indexOf('=', at) + 1); // scans the whole value
    if (at == 0) {
      return end < 0 ? null : cookieHeader.substring(end + 2);
    }
    return end < 0 ? cookieHeader.substring(0, at) : cookieHeader.substring(0, at) + cookieHeader.substring(end);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    response.getHeaders().add(HttpHeader.SET_COOKIE, setCookies[next.getAndIncrement() & (VALUES - 1)]);
    String cookie = request.getHeaders().get(HttpHeader.COOKIE);
    String rest = without(cookie);
    if (rest == cookie) {
      return super.handle(request, response, callback);
    }
    HttpFields.Mutable fields = HttpFields.build(request.getHeaders());
    if (rest == null) {
      fields.remove(HttpHeader.COOKIE);
    } else {
      fields.put(HttpHeader.COOKIE, rest);
    }
    HttpFields headers = fields.asImmutable();
    return super.handle(new Request.Wrapper(request) {
      @Override
      public HttpFields getHeaders() {
        return headers;
      }
    }, response, callback);
  }
}
