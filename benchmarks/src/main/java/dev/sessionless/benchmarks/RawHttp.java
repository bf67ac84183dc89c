package dev.sessionless.benchmarks;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.LocalConnector;

/**
 * The client side of {@link FilterOverheadBenchmark}: raw HTTP/1.1 over Jetty's in-process
 * {@code LocalConnector}, with the response checked by a byte scan instead of an HTTP parser,
 * so the harness's own cost stays flat whatever the length of the cookie the server answers with.
 */
final class RawHttp {
  private RawHttp() {}

  /**
   * Sends one request on the kept-alive connection {@code endpoint} and returns the whole
   * response. With the benchmark's inline executor the response is complete when {@code
   * addInputAndExecute} returns, so it is taken as is and only checked for completeness with a
   * byte scan ({@link #complete}): a 200 status line, the end of the header block and a {@code
   * Content-Length} body all there. The
   * harness used to call {@code LocalEndPoint.waitForResponse}, which runs Jetty's HTTP
   * <em>client-side</em> parser over every response header: work no server does for its own
   * response, and proportional to the {@code Set-Cookie} the writing Sessionless row carries
   * (~20% of that row's CPU, see benchmarks/LOG.md). Should a response ever be incomplete,
   * this waits for the rest (up to 10 s) instead of returning half of it.
   */
  static ByteBuffer send(LocalConnector.LocalEndPoint endpoint, byte[] request) throws Exception {
    endpoint.addInputAndExecute(ByteBuffer.wrap(request));
    ByteBuffer response = endpoint.takeOutput();
    if (complete(response)) {
      return response;
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    all.write(response.array(), response.arrayOffset() + response.position(), response.remaining());
    while (true) {
      long left = deadline - System.nanoTime();
      ByteBuffer more = left > 0 ? endpoint.waitForOutput(left, TimeUnit.NANOSECONDS) : null;
      if (more == null) {
        throw new IllegalStateException("no complete response within 10 s:\n"
            + all.toString(StandardCharsets.ISO_8859_1));
      }
      all.write(more.array(), more.arrayOffset() + more.position(), more.remaining());
      ByteBuffer sofar = ByteBuffer.wrap(all.toByteArray());
      if (complete(sofar)) {
        return sofar;
      }
    }
  }

  private static final byte[] STATUS_200 = "HTTP/1.1 200 ".getBytes(StandardCharsets.ISO_8859_1);
  private static final byte[] CONTENT_LENGTH = "content-length:".getBytes(StandardCharsets.ISO_8859_1);

  /**
   * Whether {@code b} (from its position) holds one whole {@code 200} response with a {@code
   * Content-Length} body; throws on any other status or on a body without a length (the
   * servlet's short body always gets one). One pass over the bytes in place, looking only at line
   * starts for the header: the harness is the client, and its cost must not grow with the length
   * of the {@code Set-Cookie} line the Sessionless rows answer with.
   */
  static boolean complete(ByteBuffer b) {
    byte[] a;
    int start;
    int end;
    if (b.hasArray()) {
      a = b.array();
      start = b.arrayOffset() + b.position();
      end = b.arrayOffset() + b.limit();
    } else {
      a = new byte[b.remaining()];
      b.get(b.position(), a);
      start = 0;
      end = a.length;
    }
    long length = -1;
    int line = start;
    while (true) {
      int nl = line;
      while (nl < end && a[nl] != '\n') {
        nl++;
      }
      if (nl == end) {
        return false; // the header block is not all here yet
      }
      if (nl == line + 1 && a[line] == '\r') {
        break; // the empty line: the body starts after it
      }
      if (line > start && startsWithIgnoringCase(a, line, nl, CONTENT_LENGTH)) {
        int j = line + CONTENT_LENGTH.length;
        while (a[j] == ' ') {
          j++;
        }
        length = 0;
        while (a[j] >= '0' && a[j] <= '9') {
          length = length * 10 + (a[j++] - '0');
        }
      }
      line = nl + 1;
    }
    boolean ok = startsWithIgnoringCase(a, start, end, STATUS_200);
    if (!ok || length < 0) {
      throw new IllegalStateException((ok ? "a response without Content-Length: " : "not a 200 response: ")
          + new String(a, start, line - start, StandardCharsets.ISO_8859_1));
    }
    return end - (line + 2) >= length;
  }

  /** Whether {@code a[from, to)} starts with {@code prefix} (ASCII letters in any case). */
  private static boolean startsWithIgnoringCase(byte[] a, int from, int to, byte[] prefix) {
    if (to - from < prefix.length) {
      return false;
    }
    for (int k = 0; k < prefix.length; k++) {
      if (lower(a[from + k]) != lower(prefix[k])) {
        return false;
      }
    }
    return true;
  }

  private static int lower(byte c) {
    return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
  }

  /** A response's bytes as text (ISO-8859-1, one char per byte), for set-up checks. */
  static String text(ByteBuffer b) {
    byte[] bytes = new byte[b.remaining()];
    b.get(bytes);
    return new String(bytes, StandardCharsets.ISO_8859_1);
  }

  /** The name=value pairs of every Set-Cookie in a raw response, joined as a Cookie header. */
  static String cookieOf(String response) {
    StringBuilder b = new StringBuilder();
    for (String line : response.split("\r\n")) {
      if (line.regionMatches(true, 0, "Set-Cookie:", 0, 11)) {
        String pair = line.substring(11).trim().split(";", 2)[0];
        if (!pair.endsWith("=")) {
          b.append(b.length() == 0 ? "" : "; ").append(pair);
        }
      }
    }
    return b.toString();
  }
}
