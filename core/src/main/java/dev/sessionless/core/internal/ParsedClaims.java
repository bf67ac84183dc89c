package dev.sessionless.core.internal;

/** The registered claims of one token as the reader found them; a per-thread, reused holder. */
public final class ParsedClaims {
  /** Marks an absent NumericDate. */
  public static final long ABSENT = Long.MIN_VALUE;

  public String subject;
  public String id;
  public long issuedAt;
  public long expiresAt;
  public long notBefore;
  public boolean issuerMatched;
  public boolean issuerPresent;
  public boolean audienceMatched;
  public boolean audiencePresent;
  /** The state object's bytes, {@code payload[stateStart, stateEnd)}, or -1 when absent. */
  public int stateStart;
  public int stateEnd;
  /**
   * The state's index as {@link StateScanner} found it while the payload was read (offsets into
   * the state's own bytes), or {@code null}: the state is then indexed on first read.
   */
  public int[] stateLayout;
  /**
   * Claims other than the registered ones and the state, by name, as the JSON text they arrived
   * as; {@code null} when there are none (always for the library's own session tokens).
   */
  public java.util.Map<String, String> others;
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
