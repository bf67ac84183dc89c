package dev.sessionless.devicebinding.internal;

import dev.sessionless.core.internal.EcP256Engine;
import dev.sessionless.devicebinding.DeviceBindingException;
import dev.sessionless.devicebinding.DeviceBindingException.Reason;
import java.math.BigInteger;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.ECPublicKeySpec;
import java.security.spec.RSAPublicKeySpec;

/**
 * Device public keys from their JWK numbers, checked before use: P-256 points must lie on the
 * curve (checked by core's P-256 engine, as ES256 session keys are), RSA moduli must be 2048 to 8192
 * bits with an odd public exponent. The keys themselves are JDK keys.
 */
public final class PublicKeys {
  /** The smallest RSA modulus accepted, in bits (the draft's RS256 with today's minimum). */
  public static final int MIN_RSA_BITS = 2048;
  /** The largest RSA modulus accepted, in bits: bounds the work a proof can ask of the server. */
  public static final int MAX_RSA_BITS = 8192;

  private static final ECParameterSpec P256 = p256();

  private PublicKeys() {}

  /** The P-256 domain parameters. */
  public static ECParameterSpec p256Parameters() {
    return P256;
  }

  /**
   * An EC P-256 public key from its 32-byte big-endian coordinates.
   *
   * @throws DeviceBindingException {@code BAD_KEY} if the point is not on P-256
   */
  public static ECPublicKey ecP256(byte[] x, byte[] y) {
    if (x.length != 32 || y.length != 32) {
      throw badKey("an EC P-256 JWK's x and y must be 32 bytes each (RFC 7518 section 6.2.1.2)");
    }
    try {
      // Core's check, the one ES256 session keys get: on the curve, not the identity, x and y below p.
      EcP256Engine.of(x, y, null);
    } catch (IllegalArgumentException e) {
      throw badKey("the EC JWK's point is not on P-256: generate the key on P-256");
    }
    BigInteger bx = new BigInteger(1, x);
    BigInteger by = new BigInteger(1, y);
    try {
      return (ECPublicKey) KeyFactory.getInstance("EC").generatePublic(new ECPublicKeySpec(new ECPoint(bx, by), P256));
    } catch (GeneralSecurityException e) {
      throw badKey("the EC JWK is not a usable P-256 public key");
    }
  }

  /**
   * An RSA public key from its modulus and exponent (unsigned big-endian, no leading zero).
   *
   * @throws DeviceBindingException {@code BAD_KEY} if shorter than 2048 or longer than 8192
   *     bits, with an even or tiny exponent, or not minimally encoded
   */
  public static RSAPublicKey rsa(byte[] n, byte[] e) {
    if (n.length == 0 || n[0] == 0 || e.length == 0 || e[0] == 0) {
      throw badKey("an RSA JWK's n and e must be unsigned big-endian with no leading zero byte (RFC 7518"
          + " section 6.3.1)");
    }
    BigInteger modulus = new BigInteger(1, n);
    BigInteger exponent = new BigInteger(1, e);
    if (modulus.bitLength() < MIN_RSA_BITS || modulus.bitLength() > MAX_RSA_BITS) {
      throw badKey("an RS256 device key must have a modulus of " + MIN_RSA_BITS + " to " + MAX_RSA_BITS
          + " bits; this one has " + modulus.bitLength());
    }
    if (!exponent.testBit(0) || exponent.compareTo(BigInteger.valueOf(3)) < 0 || e.length > 8
        || !modulus.testBit(0)) {
      throw badKey("the RSA JWK's numbers are not those of an RSA key (odd modulus, odd exponent of 3 or more)");
    }
    try {
      return (RSAPublicKey) KeyFactory.getInstance("RSA").generatePublic(new RSAPublicKeySpec(modulus, exponent));
    } catch (GeneralSecurityException ex) {
      throw badKey("the RSA JWK is not a usable public key");
    }
  }

  /** {@code value} as exactly {@code length} unsigned big-endian bytes. */
  public static byte[] unsigned(BigInteger value, int length) {
    byte[] raw = value.toByteArray();
    if (raw.length == length) {
      return raw;
    }
    byte[] out = new byte[length];
    int copy = Math.min(raw.length, length);
    System.arraycopy(raw, raw.length - copy, out, length - copy, copy);
    return out;
  }

  /** {@code value} as unsigned big-endian bytes without a leading zero. */
  public static byte[] unsigned(BigInteger value) {
    return unsigned(value, (value.bitLength() + 7) / 8);
  }

  private static DeviceBindingException badKey(String message) {
    return new DeviceBindingException(Reason.BAD_KEY, message);
  }

  private static ECParameterSpec p256() {
    try {
      AlgorithmParameters params = AlgorithmParameters.getInstance("EC");
      params.init(new ECGenParameterSpec("secp256r1"));
      return params.getParameterSpec(ECParameterSpec.class);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JDK has no P-256 (secp256r1)", e);
    }
  }
}
