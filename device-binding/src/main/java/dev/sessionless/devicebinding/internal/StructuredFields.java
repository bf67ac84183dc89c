package dev.sessionless.devicebinding.internal;

import dev.sessionless.devicebinding.DeviceBindingException;
import dev.sessionless.devicebinding.DeviceBindingException.Reason;

/**
 * The few pieces of RFC 9651 (Structured Field Values) DBSC needs: reading an sf-string item
 * (its parameters ignored, as the draft says) and writing strings and tokens.
 */
public final class StructuredFields {
  private StructuredFields() {}

  /**
   * The string of an sf-string item such as {@code "abc";x=1}: the quoted string unescaped,
   * parameters after it ignored (RFC 9651 section 4.2.5 for the string).
   *
   * @param what the header's name, for the message
   * @throws DeviceBindingException {@code MALFORMED} if it does not start with a valid sf-string
   */
  public static String parseString(String value, String what) {
    int i = 0;
    int n = value.length();
    while (i < n && value.charAt(i) == ' ') {
      i++;
    }
    if (i >= n || value.charAt(i) != '"') {
      throw malformed(what);
    }
    StringBuilder out = new StringBuilder(n);
    for (i++; i < n; i++) {
      char c = value.charAt(i);
      if (c == '\\') {
        if (++i >= n) {
          throw malformed(what);
        }
        char e = value.charAt(i);
        if (e != '"' && e != '\\') {
          throw malformed(what);
        }
        out.append(e);
      } else if (c == '"') {
        String rest = value.substring(i + 1).stripTrailing();
        if (!rest.isEmpty() && rest.charAt(0) != ';') {
          throw malformed(what);
        }
        return out.toString();
      } else if (c < 0x20 || c > 0x7e) {
        throw malformed(what);
      } else {
        out.append(c);
      }
    }
    throw malformed(what);
  }

  /**
   * {@code value} as an sf-string: quoted, with {@code "} and {@code \} escaped.
   *
   * @throws IllegalArgumentException if it holds characters an sf-string cannot (outside
   *     printable ASCII)
   */
  public static String string(String value) {
    StringBuilder out = new StringBuilder(value.length() + 2).append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x20 || c > 0x7e) {
        throw new IllegalArgumentException("a structured-field string holds printable ASCII only (RFC 9651 section"
            + " 3.3.3); this value does not");
      }
      if (c == '"' || c == '\\') {
        out.append('\\');
      }
      out.append(c);
    }
    return out.append('"').toString();
  }

  private static DeviceBindingException malformed(String what) {
    return new DeviceBindingException(Reason.MALFORMED, what + " is not a structured-field string (RFC 9651):"
        + " send the value in double quotes");
  }
}
