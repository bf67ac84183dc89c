package dev.sessionless.core.internal;

/**
 * The cryptography of one key: sign and verify for JWS keys, encrypt and decrypt for JWE keys.
 * Thread-safe; implementations keep their JCA objects in their own pools (never per thread), so
 * no call looks up a provider and nothing outlives the key.
 */
public abstract class KeyEngine {
  /** Whether this engine holds the private or secret part needed to sign or encrypt. */
  public abstract boolean canSign();

  /**
   * Signs {@code in[0, len)} into {@code out} at offset 0.
   *
   * @return the signature length
   */
  public int sign(byte[] in, int len, byte[] out) {
    throw new IllegalStateException("this key does not sign");
  }

  /** Whether {@code sig[0, sigLen)} is a valid signature of {@code in[0, len)}. */
  public boolean verify(byte[] in, int len, byte[] sig, int sigLen) {
    throw new IllegalStateException("this key does not verify signatures");
  }

  /** The exact length of this key's signatures (its MAC length for HMAC). */
  public int signatureLength() {
    throw new IllegalStateException("this key does not sign");
  }

  /** Forgets nothing: engines hold key material for the life of their key. */
  @Override
  public final String toString() {
    return getClass().getSimpleName() + "[material hidden]";
  }
}
