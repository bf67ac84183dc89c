package dev.sessionless.servlet.internal;

import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;

/**
 * Finds one carrier's cookies in a request's {@code Cookie} headers, read as text, instead of
 * asking the container for every cookie it can parse.
 *
 * <p>Why not {@code getCookies()}: containers build every cookie of the request, and Jetty's
 * RFC 6265 parser copies each value character by character; for a token of several hundred
 * characters that was the largest single cost of reading a session. Here only the names are
 * looked at until one is ours, and a value is one {@code substring}.
 *
 * <p>The grammar is RFC 6265's {@code cookie-string}: pairs separated by {@code ;}, optional
 * whitespace around names and values, a value optionally in double quotes (removed, as the
 * containers do). Several {@code Cookie} headers (HTTP/2 sends one per cookie) are read in order.
 * A piece without {@code =} names no cookie and is skipped. Nothing is decoded or unescaped: a
 * value that is not a token is left for the codec to reject.
 */
final class CookieHeaders {
  /**
   * A cookie of ours: its name, and its value (quotes removed) as {@code header[start, end)},
   * not copied: the codec reads a token where it lies.
   */
  record Found(String name, String header, int start, int end) {
    /** The value, copied out. */
    String value() {
      return header.substring(start, end);
    }

    int length() {
      return end - start;
    }
  }

  /** Whether the text {@code header[from, to)} is the name of one of our cookies. */
  @FunctionalInterface
  interface NameTest {
    boolean ours(String header, int from, int to);
  }

  private CookieHeaders() {}

  /**
   * Our cookies in the order the headers carry them, duplicates included; {@code atMost} bounds
   * how many are kept (a request carrying more is no browser's). A name equal to {@code usual}
   * (or {@code null}) is that very string, not a copy.
   */
  static List<Found> find(Enumeration<String> headers, NameTest test, int atMost, String usual) {
    if (headers == null) {
      return List.of();
    }
    List<Found> found = null;
    Found first = null;
    while (headers.hasMoreElements()) {
      String h = headers.nextElement();
      if (h == null) {
        continue;
      }
      int len = h.length();
      int i = 0;
      while (i < len) {
        int end = h.indexOf(';', i);
        if (end < 0) {
          end = len;
        }
        int eq = h.indexOf('=', i);
        if (eq >= 0 && eq < end) {
          int ns = skipSpace(h, i, eq);
          int ne = trimSpace(h, ns, eq);
          if (ne > ns && test.ours(h, ns, ne)) {
            int vs = skipSpace(h, eq + 1, end);
            int ve = trimSpace(h, vs, end);
            if (ve - vs >= 2 && h.charAt(vs) == '"' && h.charAt(ve - 1) == '"') {
              vs++;
              ve--;
            }
            String n = usual != null && ne - ns == usual.length() && h.startsWith(usual, ns)
                ? usual : h.substring(ns, ne);
            Found f = new Found(n, h, vs, ve);
            if (first == null) {
              first = f;
            } else {
              if (found == null) {
                found = new ArrayList<>(4);
                found.add(first);
              }
              if (found.size() >= atMost) {
                return found;
              }
              found.add(f);
            }
          }
        }
        i = end + 1;
      }
    }
    return found != null ? found : first != null ? List.of(first) : List.of();
  }

  private static int skipSpace(String s, int from, int to) {
    while (from < to && (s.charAt(from) == ' ' || s.charAt(from) == '\t')) {
      from++;
    }
    return from;
  }

  private static int trimSpace(String s, int from, int to) {
    while (to > from && (s.charAt(to - 1) == ' ' || s.charAt(to - 1) == '\t')) {
      to--;
    }
    return to;
  }
}
