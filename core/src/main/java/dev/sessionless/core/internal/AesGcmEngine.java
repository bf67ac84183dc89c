package dev.sessionless.core.internal;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * AES-256-GCM for {@code dir}/{@code A256GCM} JWE, with {@link Cipher}s kept in this engine's
 * own {@link Pool} (never per thread: a cipher holds its key's schedule, which must leave memory
 * with the key). A fresh
 * random 96-bit IV for every encryption: keep well under 2^32 encryptions per key (rotate keys).
 * {@code encrypt} and {@code decrypt} keep their own try blocks on purpose: a failed tag check
 * gives the cipher back to the pool, any other failure does not.
 */
public final class AesGcmEngine extends KeyEngine {
  /** IV length in bytes (96 bits, the only length accepted). */
  public static final int IV_BYTES = 12;
  /** Tag length in bytes (128 bits, the only length accepted). */
  public static final int TAG_BYTES = 16;

  private final SecretKeySpec key;
  private final Pool<Cipher> ciphers = new Pool<>(AesGcmEngine::newCipher);

  /** @param secret the 32-byte AES key; copied */
  public AesGcmEngine(byte[] secret) {
    if (secret.length != 32) {
      throw new IllegalArgumentException("A256GCM needs a 32-byte key, got " + secret.length + " bytes");
    }
    this.key = new SecretKeySpec(secret, "AES");
  }

  private static Cipher newCipher() {
    try {
      return Cipher.getInstance("AES/GCM/NoPadding");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES/GCM is not available in this JVM", e);
    }
  }

  @Override
  public boolean canSign() {
    return true;
  }

  /**
   * Encrypts {@code plain[0, len)} with {@code aad[0, aadLen)} authenticated, choosing a random IV.
   *
   * @param ivOut receives the 12-byte IV
   * @param out receives ciphertext followed by the 16-byte tag; needs {@code len + 16} bytes
   * @return the number of bytes written to {@code out}
   */
  public int encrypt(
      byte[] aad, int aadLen, byte[] plain, int len, SecureRandom random, byte[] ivOut, byte[] out) {
    random.nextBytes(ivOut);
    Cipher c = ciphers.take();
    try {
      start(c, Cipher.ENCRYPT_MODE, ivOut, aad, aadLen);
      int n = c.doFinal(plain, 0, len, out, 0);
      ciphers.give(c);
      return n;
    } catch (GeneralSecurityException e) {
      // A cipher left mid-operation is not given back.
      throw new IllegalStateException("AES-GCM encryption failed", e);
    }
  }

  /**
   * Decrypts and authenticates.
   *
   * @param in ciphertext followed by the tag, {@code in[0, len)}
   * @param out receives the plaintext; needs {@code len - 16} bytes
   * @return the plaintext length, or -1 when authentication fails
   */
  public int decrypt(byte[] aad, int aadLen, byte[] iv, byte[] in, int len, byte[] out) {
    Cipher c = ciphers.take();
    try {
      start(c, Cipher.DECRYPT_MODE, iv, aad, aadLen);
      int n = c.doFinal(in, 0, len, out, 0);
      ciphers.give(c);
      return n;
    } catch (AEADBadTagException e) {
      ciphers.give(c); // a failed tag check ends the operation; the cipher is reusable
      return -1;
    } catch (GeneralSecurityException e) {
      // A cipher left mid-operation must not be reused: it is not given back.
      return -1;
    }
  }

  /** Sets {@code c} up for one operation with this key, {@code iv[0, 12)} and {@code aad[0, aadLen)}. */
  private void start(Cipher c, int mode, byte[] iv, byte[] aad, int aadLen) throws GeneralSecurityException {
    c.init(mode, key, new GCMParameterSpec(TAG_BYTES * 8, iv, 0, IV_BYTES));
    c.updateAAD(aad, 0, aadLen);
  }
}
