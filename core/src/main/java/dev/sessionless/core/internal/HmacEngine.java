package dev.sessionless.core.internal;

import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HMAC-SHA-2 (RFC 2104) through the JCA {@code Mac} of whichever provider the JVM picks (the JDK's
 * {@code SunJCE}, or a FIPS module, PKCS#11 token or HSM provider put first), with keyed {@code
 * Mac}s kept in this engine's own {@link Pool}: made once, reused by any thread, and living exactly
 * as long as this engine, so a retired secret leaves memory with its key. A {@code Mac} that cannot
 * be cloned is made anew for each pooled state. MACs are compared in constant time, and a failed
 * verify clears the forged message's correct MAC before its state goes back to the pool.
 */
public final class HmacEngine extends KeyEngine {
  private final String jcaName;
  private final int macLength;
  /** The keyed {@code Mac}; cloned per pooled state. */
  private final Mac prototype;
  /** The key, for a provider whose {@code Mac} cannot be cloned. */
  private final SecretKeySpec macKey;
  private final Pool<Keyed> pool;

  /** One pooled state: a keyed {@code Mac} and the buffer a verify computes into. */
  private final class Keyed {
    final Mac mac;
    final byte[] expected = new byte[64];

    Keyed() {
      synchronized (HmacEngine.this) {
        this.mac = macCopy();
      }
    }
  }

  /**
   * @param jcaName {@code HmacSHA256}, {@code HmacSHA384} or {@code HmacSHA512}
   * @param secret the secret; copied
   */
  public HmacEngine(String jcaName, byte[] secret) {
    this.jcaName = jcaName;
    try {
      this.macKey = new SecretKeySpec(secret, jcaName);
      this.prototype = Mac.getInstance(jcaName);
      prototype.init(macKey);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(jcaName + " is not available in this JVM", e);
    }
    this.macLength = prototype.getMacLength();
    this.pool = new Pool<>(Keyed::new);
  }

  /** A copy of the keyed {@code Mac}: a clone, or a new one where the provider's cannot be cloned. */
  private Mac macCopy() {
    try {
      return (Mac) prototype.clone();
    } catch (CloneNotSupportedException e) {
      try {
        Mac m = Mac.getInstance(jcaName, prototype.getProvider());
        m.init(macKey);
        return m;
      } catch (GeneralSecurityException e2) {
        throw new IllegalStateException(jcaName + " of " + prototype.getProvider().getName() + " failed", e2);
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
    compute(k, in, len, out);
    pool.give(k);
    return macLength;
  }

  @Override
  public boolean verify(byte[] in, int len, byte[] sig, int sigLen) {
    if (sigLen != macLength) {
      return false;
    }
    Keyed k = pool.take();
    compute(k, in, len, k.expected);
    boolean ok = ConstantTime.equals(k.expected, 0, sig, 0, macLength);
    if (!ok) {
      Arrays.fill(k.expected, (byte) 0);
    }
    pool.give(k);
    return ok;
  }

  private void compute(Keyed k, byte[] in, int len, byte[] out) {
    try {
      k.mac.update(in, 0, len);
      k.mac.doFinal(out, 0); // also resets the Mac for its next use
    } catch (GeneralSecurityException e) {
      // A Mac left mid-operation is not given back to the pool.
      throw new IllegalStateException(jcaName + " failed", e);
    }
  }

  /** How many keyed states this engine holds in its pool now (for tests). */
  int pooled() {
    return pool.size();
  }

  /** Whether no pooled state holds a computed MAC (for tests). */
  boolean pooledStatesHoldNothing() {
    for (Keyed k : pool.pooledNow()) {
      for (byte b : k.expected) {
        if (b != 0) {
          return false;
        }
      }
    }
    return true;
  }
}
