package dev.sessionless.core.internal;

/**
 * Case-insensitive comparison of ASCII letters only. {@code String.equalsIgnoreCase} folds
 * Unicode case, so {@code "ſ"} (U+017F) matches {@code "s"} and the Kelvin sign matches {@code
 * "k"}: header values that the JOSE RFCs compare ignoring case (media types, RFC 7515 section
 * 4.1.9) are compared here, where only {@code A-Z} and {@code a-z} are folded.
 */
public final class Ascii {
  private Ascii() {}

  /** Whether {@code a} and {@code b} are equal when ASCII letters are folded to lower case. */
  public static boolean equalsIgnoreCase(String a, String b) {
    int n = a.length();
    if (n != b.length()) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      if (lower(a.charAt(i)) != lower(b.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  private static char lower(char c) {
    return c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c;
  }
}
