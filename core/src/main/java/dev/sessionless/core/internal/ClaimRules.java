package dev.sessionless.core.internal;

/**
 * The registered-claim rules both payload readers ({@link FastClaims} and {@link ClaimsReader})
 * and the writer share: claim names as bits, the state claim's name and the value limits. The
 * readers take them from here, never from each other.
 */
public final class ClaimRules {
  /** The private claim that holds the application state. */
  public static final String STATE_CLAIM = "st";
  /**
   * The longest claim or state name, in chars; names are 1 to this long ({@code Claims.Builder}
   * refuses others, so a decoder that accepted one could not carry the session on).
   */
  public static final int MAX_NAME = 256;
  /** The longest session id ({@code jti}) accepted, in chars; as {@code Claims.Builder#sessionId}. */
  public static final int MAX_SESSION_ID = 128;
  /** The latest NumericDate accepted: 9999-12-31T23:59:59Z. */
  public static final long MAX_NUMERIC_DATE = 253_402_300_799L;

  static final int ISS = 1;
  static final int SUB = 2;
  static final int AUD = 4;
  static final int EXP = 8;
  static final int NBF = 16;
  static final int IAT = 32;
  static final int JTI = 64;
  static final int ST = 128;

  private ClaimRules() {}

  /** Whether {@code name} is a registered claim the codec writes or checks itself, or the state claim. */
  public static boolean isReserved(String name) {
    switch (name) {
      case "iss": case "sub": case "aud": case "exp": case "nbf": case "iat": case "jti": case STATE_CLAIM:
        return true;
      default:
        return false;
    }
  }
}
