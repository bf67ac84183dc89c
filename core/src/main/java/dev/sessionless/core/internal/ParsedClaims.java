package dev.sessionless.core.internal;

/**
 * The registered claims of one token as the reader found them; a reused holder, written by the
 * readers in this package and read by the verifier through its accessors.
 */
public final class ParsedClaims {
  /** Marks an absent NumericDate. */
  public static final long ABSENT = Long.MIN_VALUE;

  String subject;
  String id;
  long issuedAt;
  long expiresAt;
  long notBefore;
  boolean issuerMatched;
  boolean issuerPresent;
  boolean audienceMatched;
  boolean audiencePresent;
  /** The state object's bytes, {@code payload[stateStart, stateEnd)}, or -1 when absent. */
  int stateStart;
  int stateEnd;
  /**
   * The state's index as {@link StateScanner} found it while the payload was read (offsets into
   * the state's own bytes), or {@code null}: the state is then indexed on first read.
   */
  int[] stateLayout;
  /**
   * Claims other than the registered ones and the state, by name, as the JSON text they arrived
   * as; {@code null} when there are none (always for the library's own session tokens).
   */
  java.util.Map<String, String> others;
  /** The {@code sub} claim, or {@code null}. */
  public String subject() {
    return subject;
  }

  /** The {@code jti} claim, or {@code null}. */
  public String id() {
    return id;
  }

  /** The {@code iat} claim, or {@link #ABSENT}. */
  public long issuedAt() {
    return issuedAt;
  }

  /** The {@code exp} claim, or {@link #ABSENT}. */
  public long expiresAt() {
    return expiresAt;
  }

  /** The {@code nbf} claim, or {@link #ABSENT}. */
  public long notBefore() {
    return notBefore;
  }

  /** Whether {@code iss} was the expected issuer. */
  public boolean issuerMatched() {
    return issuerMatched;
  }

  /** Whether {@code iss} was there. */
  public boolean issuerPresent() {
    return issuerPresent;
  }

  /** Whether {@code aud} was the expected audience. */
  public boolean audienceMatched() {
    return audienceMatched;
  }

  /** Whether {@code aud} was there. */
  public boolean audiencePresent() {
    return audiencePresent;
  }

  /** Where the state object starts in the payload, or -1. */
  public int stateStart() {
    return stateStart;
  }

  /** Where the state object ends in the payload, or -1. */
  public int stateEnd() {
    return stateEnd;
  }

  /** The state's index found while reading (not copied), or {@code null}. */
  public int[] stateLayout() {
    return stateLayout;
  }

  /** The other claims as JSON text by name, or {@code null}. */
  public java.util.Map<String, String> others() {
    return others;
  }

  /** The scanner that indexes the state as it is read: this holder's own, not the shared pool's. */
  StateScanner scanner;

  void reset() {
    subject = null;
    id = null;
    issuedAt = ABSENT;
    expiresAt = ABSENT;
    notBefore = ABSENT;
    issuerMatched = false;
    issuerPresent = false;
    audienceMatched = false;
    audiencePresent = false;
    stateStart = -1;
    stateEnd = -1;
    stateLayout = null;
    others = null;
  }
}
