package dev.sessionless.core.internal;

/**
 * Per-thread working buffers for the hot path, so a decode allocates only what it returns.
 * Never hand a scratch array to code that may keep it.
 */
public final class Scratch {
  private static final ThreadLocal<Scratch> LOCAL = ThreadLocal.withInitial(Scratch::new);

  /** Room for a MAC or signature (64 bytes is the largest: HS512, ES256, Ed25519). */
  public final byte[] mac = new byte[64];
  /** Room for a decoded signature segment. */
  public final byte[] sig = new byte[64];
  /** Room for an IV and a GCM tag. */
  public final byte[] iv = new byte[12];
  /** The decoded claims of the token being read; reused. */
  public final ParsedClaims claims = new ParsedClaims();

  /** The length a decrypt step left in {@link #payload(int)}. */
  public int lastLength;

  private byte[] payload = new byte[1024];
  private byte[] inflated = new byte[0];
  private byte[] work = new byte[1024];

  private Scratch() {}

  /** This thread's scratch space. */
  public static Scratch get() {
    return LOCAL.get();
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

  /** A second buffer of at least {@code n} bytes (ciphertext, inflated data); its contents are undefined. */
  public byte[] work(int n) {
    if (work.length < n) {
      work = new byte[Math.max(n, work.length * 2)];
    }
    return work;
  }
}
