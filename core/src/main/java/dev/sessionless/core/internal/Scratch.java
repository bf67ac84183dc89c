package dev.sessionless.core.internal;

/**
 * Working buffers for one encode or decode, taken from a shared {@link Pool} and given back, so
 * a decode allocates only what it returns. Never hand a scratch array to code that may keep it,
 * and never use a scratch after giving it back. No thread keeps one: see {@link Pool} for why.
 */
public final class Scratch {
  /** Buffers grown beyond this are not kept when the scratch goes back to the pool. */
  static final int KEEP_AT_MOST = 16 * 1024;
  private static final int INITIAL = 1024;
  private static final Pool<Scratch> POOL = new Pool<>(Scratch::new);

  /** Room for a MAC or signature (64 bytes is the largest: HS512, ES256, Ed25519). */
  public final byte[] mac = new byte[64];
  /** Room for a decoded signature segment. */
  public final byte[] sig = new byte[64];
  /** Room for an IV and a GCM tag. */
  public final byte[] iv = new byte[12];
  /** The decoded claims of the token being read; reused. */
  public final ParsedClaims claims = new ParsedClaims();

  private byte[] payload = new byte[INITIAL];
  private byte[] inflated = new byte[0];
  private byte[] work = new byte[INITIAL];
  private char[] left = new char[0];
  private char[] right = new char[0];

  private Scratch() {}

  /** A scratch for this operation; give it back with {@link #release()}. */
  public static Scratch take() {
    return POOL.take();
  }

  /** Gives this scratch back to the pool, first dropping any buffer that grew large. */
  public void release() {
    if (payload.length > KEEP_AT_MOST) {
      payload = new byte[INITIAL];
    }
    if (inflated.length > KEEP_AT_MOST) {
      inflated = new byte[0];
    }
    if (work.length > KEEP_AT_MOST) {
      work = new byte[INITIAL];
    }
    if (left.length > KEEP_AT_MOST) {
      left = new char[0];
      right = new char[0];
    }
    POOL.give(this);
  }

  /** A buffer of at least {@code n} bytes for a decoded payload; its contents are undefined. */
  public byte[] payload(int n) {
    if (payload.length < n) {
      payload = new byte[Math.max(n, payload.length * 2)];
    }
    return payload;
  }

  /** A buffer of at least {@code n} bytes for inflated data; its contents are undefined. */
  public byte[] inflated(int n) {
    if (inflated.length < n) {
      inflated = new byte[n];
    }
    return inflated;
  }

  /** The inflate buffer as {@link #inflated(int)} or {@link #growInflated(int, int)} last left it. */
  public byte[] inflated() {
    return inflated;
  }

  /** Grows the inflate buffer to at least {@code n} bytes, keeping its first {@code keep} bytes. */
  public byte[] growInflated(int n, int keep) {
    if (inflated.length < n) {
      byte[] grown = new byte[n];
      System.arraycopy(inflated, 0, grown, 0, keep);
      inflated = grown;
    }
    return inflated;
  }

  /** A second buffer of at least {@code n} bytes (ciphertext, inflated data); its contents are undefined. */
  public byte[] work(int n) {
    if (work.length < n) {
      work = new byte[Math.max(n, work.length * 2)];
    }
    return work;
  }

  /**
   * Whether {@code a[aFrom, aFrom + len)} and {@code b[bFrom, bFrom + len)} hold the same
   * characters. {@code String.regionMatches} compares one character at a time, which for a
   * token of several hundred characters cost as much as the rest of a verification-cache hit;
   * copying both regions out ({@code getChars} is an array copy) and comparing the arrays
   * ({@code Arrays.equals}, vectorised) is several times faster.
   */
  public static boolean sameChars(String a, int aFrom, String b, int bFrom, int len) {
    if (len <= 32) {
      return a.regionMatches(aFrom, b, bFrom, len);
    }
    Scratch s = take();
    try {
      if (s.left.length < len) {
        s.left = new char[len];
        s.right = new char[len];
      }
      a.getChars(aFrom, aFrom + len, s.left, 0);
      b.getChars(bFrom, bFrom + len, s.right, 0);
      return java.util.Arrays.equals(s.left, 0, len, s.right, 0, len);
    } finally {
      s.release();
    }
  }
}
