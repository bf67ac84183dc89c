package dev.sessionless.session.internal;

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
    Collector c = new Collector(test, atMost, usual);
    while (headers.hasMoreElements()) {
      String h = headers.nextElement();
      if (h != null) {
        c.header = h;
        if (!scan(h, c)) {
          break;
        }
      }
    }
    return c.result();
  }

  /** Receives the named pieces of one header, in order. */
  interface Pieces {
    /**
     * A piece whose name is {@code [ns, ne)} (not empty, spaces trimmed) and whose value runs
     * from the first character after its {@code =} at {@code eq + 1} to {@code end} (the next
     * {@code ;} or the header's end, untrimmed). Returns false to stop scanning.
     */
    boolean piece(int ns, int ne, int eq, int end);
  }

  /**
   * Walks one header's {@code name=value} pieces, looking at each character once (a name's
   * characters up to three times, for the spaces trimmed around it): a {@code =} is searched for within its own piece
   * only, so a header of many pieces without one ({@code a;a;a;…}) costs its length, not its
   * length squared. Takes a {@link CharSequence} so a test can count the characters read.
   * Returns false when {@code sink} asked to stop.
   */
  static boolean scan(CharSequence h, Pieces sink) {
    int len = h.length();
    int i = 0;
    while (i < len) {
      int eq = -1;
      int p = i;
      for (; p < len; p++) {
        char ch = h.charAt(p);
        if (ch == ';') {
          break;
        }
        if (ch == '=') {
          eq = p;
          break;
        }
      }
      if (eq < 0) {
        i = p + 1; // a piece without '=' names no cookie
        continue;
      }
      int end = eq + 1;
      while (end < len && h.charAt(end) != ';') {
        end++;
      }
      int ns = skipSpace(h, i, eq);
      int ne = trimSpace(h, ns, eq);
      if (ne > ns && !sink.piece(ns, ne, eq, end)) {
        return false;
      }
      i = end + 1;
    }
    return true;
  }

  /** Keeps the pieces that {@link NameTest} calls ours, up to a bound. */
  private static final class Collector implements Pieces {
    private final NameTest test;
    private final int atMost;
    private final String usual;
    String header;
    private Found first;
    private List<Found> found;

    Collector(NameTest test, int atMost, String usual) {
      this.test = test;
      this.atMost = atMost;
      this.usual = usual;
    }

    @Override
    public boolean piece(int ns, int ne, int eq, int end) {
      String h = header;
      if (!test.ours(h, ns, ne)) {
        return true;
      }
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
        return true;
      }
      if (found == null) {
        found = new ArrayList<>(4);
        found.add(first);
      }
      if (found.size() >= atMost) {
        return false;
      }
      found.add(f);
      return true;
    }

    List<Found> result() {
      return found != null ? found : first != null ? List.of(first) : List.of();
    }
  }

  private static int skipSpace(CharSequence s, int from, int to) {
    while (from < to && (s.charAt(from) == ' ' || s.charAt(from) == '\t')) {
      from++;
    }
    return from;
  }

  private static int trimSpace(CharSequence s, int from, int to) {
    while (to > from && (s.charAt(to - 1) == ' ' || s.charAt(to - 1) == '\t')) {
      to--;
    }
    return to;
  }
}
