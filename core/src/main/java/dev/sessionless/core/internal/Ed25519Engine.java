package dev.sessionless.core.internal;

import java.security.SecureRandom;
import org.bouncycastle.math.ec.rfc8032.Ed25519;

/**
 * EdDSA over Ed25519 (RFC 8032, RFC 8037) through BouncyCastle's lightweight implementation,
 * with the public point decoded once. Verification rejects a non-canonical S (S must be below
 * the group order) and an invalid public key.
 */
public final class Ed25519Engine extends KeyEngine {
  static {
    Ed25519.precompute();
  }

  private final byte[] publicKey;
  private final Ed25519.PublicPoint point;
  private final byte[] secret;

  private Ed25519Engine(byte[] publicKey, Ed25519.PublicPoint point, byte[] secret) {
    this.publicKey = publicKey;
    this.point = point;
    this.secret = secret;
  }

  /**
   * An engine from JWK values.
   *
   * @param x the 32-byte public key
   * @param d the 32-byte private seed, or {@code null} for verify-only
   * @throws IllegalArgumentException if {@code x} is not a valid Ed25519 public key or does not match {@code d}
   */
  public static Ed25519Engine of(byte[] x, byte[] d) {
    if (x.length != Ed25519.PUBLIC_KEY_SIZE || (d != null && d.length != Ed25519.SECRET_KEY_SIZE)) {
      throw new IllegalArgumentException("an Ed25519 key needs a 32-byte x (and d)");
    }
    Ed25519.PublicPoint p = Ed25519.validatePublicKeyFullExport(x, 0);
    if (p == null) {
      throw new IllegalArgumentException("x is not a valid Ed25519 public key");
    }
    if (d != null) {
      byte[] derived = new byte[Ed25519.PUBLIC_KEY_SIZE];
      Ed25519.generatePublicKey(d, 0, derived, 0);
      if (!ConstantTime.equals(derived, x)) {
        throw new IllegalArgumentException("the Ed25519 private key d does not match the public key x");
      }
    }
    return new Ed25519Engine(x.clone(), p, d == null ? null : d.clone());
  }

  /** A new random key pair. */
  public static Ed25519Engine generate(SecureRandom random) {
    byte[] d = new byte[Ed25519.SECRET_KEY_SIZE];
    Ed25519.generatePrivateKey(random, d);
    byte[] x = new byte[Ed25519.PUBLIC_KEY_SIZE];
    Ed25519.generatePublicKey(d, 0, x, 0);
    return of(x, d);
  }

  /** This key without its private part. */
  public Ed25519Engine publicOnly() {
    return secret == null ? this : new Ed25519Engine(publicKey, point, null);
  }

  /** The public key, 32 bytes. */
  public byte[] x() {
    return publicKey.clone();
  }

  /** The private seed, 32 bytes; only for deliberate export. */
  public byte[] d() {
    if (secret == null) {
      throw new IllegalStateException("this key has no private part");
    }
    return secret.clone();
  }

  @Override
  public boolean canSign() {
    return secret != null;
  }

  @Override
  public int signatureLength() {
    return Ed25519.SIGNATURE_SIZE;
  }

  @Override
  public int sign(byte[] in, int len, byte[] out) {
    if (secret == null) {
      throw new IllegalStateException("this key has no private part and cannot sign");
    }
    Ed25519.sign(secret, 0, publicKey, 0, in, 0, len, out, 0);
    return Ed25519.SIGNATURE_SIZE;
  }

  @Override
  public boolean verify(byte[] in, int len, byte[] sig, int sigLen) {
    return sigLen == Ed25519.SIGNATURE_SIZE && Ed25519.verify(sig, 0, point, in, 0, len);
  }
}
