package dev.sessionless.core.internal;

import java.nio.charset.StandardCharsets;

/**
 * The issuer and audience a codec requires, in the forms its payload readers compare with: as
 * chars (the Jackson path) and, when the value is printable ASCII without a quote or backslash,
 * as the exact bytes it has inside a JSON string without escapes ({@link FastClaims}, which
 * compares them in one vectorised step).
 */
public final class ExpectedClaims {
  final char[] issuer;
  final char[] audience;
  /** The issuer's bytes, or {@code null} when no string {@link FastClaims} reads can equal it. */
  final byte[] plainIssuer;
  /** The audience's bytes, or {@code null} as for {@link #plainIssuer}. */
  final byte[] plainAudience;
  /**
   * How this library's own payloads begin, {@code {"iss":"<issuer>","aud":"<audience>",}, or
   * {@code null} when either is not plain: {@link FastClaims} takes both claims in one compare.
   */
  final byte[] head;

  private ExpectedClaims(String issuer, String audience) {
    this.issuer = issuer.toCharArray();
    this.audience = audience.toCharArray();
    this.plainIssuer = plain(issuer);
    this.plainAudience = plain(audience);
    this.head = plainIssuer == null || plainAudience == null ? null
        : ("{\"iss\":\"" + issuer + "\",\"aud\":\"" + audience + "\",").getBytes(StandardCharsets.US_ASCII);
  }

  /** The expected {@code iss} and {@code aud} member. */
  public static ExpectedClaims of(String issuer, String audience) {
    return new ExpectedClaims(issuer, audience);
  }

  private static byte[] plain(String s) {
    for (int k = 0; k < s.length(); k++) {
      char c = s.charAt(k);
      if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
        return null;
      }
    }
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
