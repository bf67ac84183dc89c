package dev.sessionless.gateway;

import java.util.List;
import java.util.Set;

/**
 * Removes the browser's session cookies from a {@code Cookie} header: each configured name and
 * its chunks ({@code NAME.1} to {@code NAME.999}, as the session filter splits a long token),
 * keeping every other cookie as it came. One pass over the header, no regular expressions.
 * Immutable and thread-safe.
 */
final class SessionCookies {
  private final Set<String> names;

  /**
   * @param names the session cookie names; none empty
   * @throws IllegalArgumentException if a name is empty or holds {@code ;}, {@code =}, a space
   *     or a control character
   */
  SessionCookies(List<String> names) {
    for (String n : names) {
      if (n == null || n.isEmpty() || n.chars().anyMatch(c -> c <= ' ' || c == ';' || c == '=' || c == ',' || c >= 127)) {
        throw new IllegalArgumentException("sessionless.gateway.session-cookies: '" + n
            + "' is not a cookie name (no spaces, ';', '=', ',' or control characters)");
      }
    }
    this.names = Set.copyOf(names);
  }

  /**
   * The {@code Cookie} header without the session cookies: the kept pairs joined by {@code "; "},
   * or {@code null} if none is left.
   */
  String strip(List<String> headerValues) {
    StringBuilder out = new StringBuilder();
    for (String header : headerValues) {
      int i = 0;
      int n = header.length();
      while (i < n) {
        int end = header.indexOf(';', i);
        if (end < 0) {
          end = n;
        }
        int from = i;
        int to = end;
        while (from < to && header.charAt(from) == ' ') {
          from++;
        }
        while (to > from && header.charAt(to - 1) == ' ') {
          to--;
        }
        if (from < to && !ours(header, from, to)) {
          if (out.length() > 0) {
            out.append("; ");
          }
          out.append(header, from, to);
        }
        i = end + 1;
      }
    }
    return out.length() == 0 ? null : out.toString();
  }

  /** Whether the pair {@code h[from, to)} is a session cookie or one of its chunks. */
  private boolean ours(String h, int from, int to) {
    int nameEnd = from;
    while (nameEnd < to && h.charAt(nameEnd) != '=') {
      nameEnd++; // within this pair only: a header of many pairs without '=' stays linear
    }
    while (nameEnd > from && h.charAt(nameEnd - 1) == ' ') {
      nameEnd--;
    }
    String name = h.substring(from, nameEnd);
    if (names.contains(name)) {
      return true;
    }
    int dot = name.lastIndexOf('.');
    if (dot <= 0 || !names.contains(name.substring(0, dot))) {
      return false;
    }
    String digits = name.substring(dot + 1);
    if (digits.isEmpty() || digits.length() > 3 || digits.charAt(0) == '0') {
      return false;
    }
    for (int k = 0; k < digits.length(); k++) {
      char c = digits.charAt(k);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  /** The names. */
  @Override
  public String toString() {
    return "SessionCookies" + names;
  }
}
