package dev.sessionless.core.internal;

import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** HMAC-SHA-2 with one keyed {@link Mac} per thread, initialised once. */
public final class HmacEngine extends KeyEngine {
  private final SecretKeySpec key;
  private final String jcaName;
  private final int macLength;
  private final ThreadLocal<Mac> mac;

  /**
   * @param jcaName {@code HmacSHA256}, {@code HmacSHA384} or {@code HmacSHA512}
   * @param secret the secret; copied
   */
  public HmacEngine(String jcaName, byte[] secret) {
    this.jcaName = jcaName;
    this.key = new SecretKeySpec(secret, jcaName);
    Mac probe = newMac();
    this.macLength = probe.getMacLength();
    this.mac = ThreadLocal.withInitial(this::newMac);
  }

  private Mac newMac() {
    try {
      Mac m = Mac.getInstance(jcaName);
      m.init(key);
      return m;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(jcaName + " is not available in this JVM", e);
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
    Mac m = mac.get();
    m.update(in, 0, len);
    try {
      m.doFinal(out, 0);
    } catch (javax.crypto.ShortBufferException e) {
      throw new IllegalStateException(e);
    }
    return macLength;
  }

  @Override
  public boolean verify(byte[] in, int len, byte[] sig, int sigLen) {
    if (sigLen != macLength) {
      return false;
    }
    byte[] expected = Scratch.get().mac;
    sign(in, len, expected);
    return ConstantTime.equals(expected, 0, sig, 0, macLength);
  }
}
