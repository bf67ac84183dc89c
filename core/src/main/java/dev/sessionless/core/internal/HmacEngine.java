package dev.sessionless.core.internal;

import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.SecretKeySpec;

/**
 * HMAC-SHA-2 with keyed {@link Mac}s kept in this engine's own {@link Pool}: a keyed {@code Mac}
 * is made once (cloned from a keyed prototype, no provider look-up) and reused by any thread, and
 * it lives exactly as long as this engine, so a retired secret leaves memory with its key.
 */
public final class HmacEngine extends KeyEngine {
  private final String jcaName;
  private final int macLength;
  private final Mac prototype;
  private final Pool<Keyed> pool;

  /** A keyed Mac and room for the MAC it computes when verifying. */
  private static final class Keyed {
    final Mac mac;
    final byte[] expected = new byte[64];

    Keyed(Mac mac) {
      this.mac = mac;
    }
  }

  /**
   * @param jcaName {@code HmacSHA256}, {@code HmacSHA384} or {@code HmacSHA512}
   * @param secret the secret; copied
   */
  public HmacEngine(String jcaName, byte[] secret) {
    this.jcaName = jcaName;
    try {
      this.prototype = Mac.getInstance(jcaName);
      prototype.init(new SecretKeySpec(secret, jcaName));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(jcaName + " is not available in this JVM", e);
    }
    this.macLength = prototype.getMacLength();
    this.pool = new Pool<>(this::newKeyed);
  }

  private Keyed newKeyed() {
    synchronized (prototype) {
      try {
        return new Keyed((Mac) prototype.clone());
      } catch (CloneNotSupportedException e) {
        throw new IllegalStateException(jcaName + " of this JVM's provider cannot be cloned", e);
      }
    }
  }

  @Override
  public boolean canSign() {
    return true;
  }

  @Override
  public int signatureLength() {
    return macLength;
  }

  @Override
  public int sign(byte[] in, int len, byte[] out) {
    Keyed k = pool.take();
    mac(k.mac, in, len, out);
    pool.give(k);
    return macLength;
  }

  @Override
  public boolean verify(byte[] in, int len, byte[] sig, int sigLen) {
    if (sigLen != macLength) {
      return false;
    }
    Keyed k = pool.take();
    mac(k.mac, in, len, k.expected);
    boolean ok = ConstantTime.equals(k.expected, 0, sig, 0, macLength);
    pool.give(k);
    return ok;
  }

  private void mac(Mac m, byte[] in, int len, byte[] out) {
    m.update(in, 0, len);
    try {
      m.doFinal(out, 0); // also resets the Mac for its next use
    } catch (ShortBufferException e) {
      throw new IllegalStateException(e);
    }
  }

  /** How many keyed Macs this engine holds in its pool now (for tests). */
  int pooled() {
    return pool.size();
  }
}
