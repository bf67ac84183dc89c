package dev.sessionless.core.internal;

import java.util.HexFormat;
import java.util.Objects;

/**
 * The one rule for key IDs ({@code kid}), wherever a key is made: 1 to 128 printable ASCII
 * characters, without {@code "} or {@code \}, so a kid can be written into a JSON header
 * verbatim and compared byte for byte.
 */
public final class KeyIds {
  /** The longest kid accepted, in characters. */
  public static final int MAX_LENGTH = 128;

  private KeyIds() {}

  /**
   * Checks {@code kid} against the rule.
   *
   * @throws NullPointerException if it is {@code null}
   * @throws IllegalArgumentException if it breaks the rule, saying how
   */
  public static void check(String kid) {
    Objects.requireNonNull(kid, "kid");
    if (kid.isEmpty() || kid.length() > MAX_LENGTH) {
      throw new IllegalArgumentException("a kid must be 1 to " + MAX_LENGTH + " characters long");
    }
    for (int i = 0; i < kid.length(); i++) {
      char c = kid.charAt(i);
      if (c < 0x21 || c > 0x7e || c == '"' || c == '\\') {
        throw new IllegalArgumentException(
            "a kid may hold printable ASCII only, without '\"' or '\\' (position " + i + ")");
      }
    }
  }

  /**
   * The kid of an HS256 key given as a bare secret (a variable or init parameter holding one
   * base64url value): {@code secret-} and the first 8 hex digits of the secret's SHA-256, so every
   * node derives the same kid and the kid reveals nothing usable. The keyring and the servlet
   * filter both use this rule.
   */
  public static String forSecret(byte[] secret) {
    byte[] digest = Sha256.newDigest().digest(secret);
    return "secret-" + HexFormat.of().formatHex(digest, 0, 4);
  }
}
