package dev.sessionless.core.internal;

import java.math.BigInteger;
import java.security.SecureRandom;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.crypto.signers.HMacDSAKCalculator;
import org.bouncycastle.math.ec.ECCurve;
import org.bouncycastle.math.ec.ECFieldElement;
import org.bouncycastle.math.ec.ECPoint;
import org.bouncycastle.math.ec.FixedPointCombMultiplier;
import org.bouncycastle.util.BigIntegers;

/**
 * ES256 (ECDSA on P-256 with SHA-256) through BouncyCastle's lightweight API and its
 * special-form P-256 arithmetic, which verifies several times faster than the JDK provider.
 * Signatures are the fixed 64-byte {@code r || s} form of RFC 7518 section 3.4; DER is refused.
 * Signing is deterministic (RFC 6979): BouncyCastle's {@code ECDSASigner} steps, except that
 * the inversion of the point's Z coordinate is blinded with core's {@link SeededRandom}, not the
 * platform default {@code ECPoint.normalize()} draws on (a {@code /dev/urandom} read now and
 * then, which must not happen on an event loop). {@code EcP256EngineTest} holds the signatures
 * equal to {@code ECDSASigner}'s.
 *
 * <p><b>Malleability.</b> Verification accepts both s and n - s (JOSE peers emit either; RFC 7518
 * does not ask for low-S), with r and s in [1, n - 1]. That is safe only because no part of the
 * library treats a signature as identity: the verification cache compares whole token texts,
 * and a session's identity is its {@code jti}. Keep it that way.
 */
public final class EcP256Engine extends KeyEngine {
  private static final X9ECParameters CURVE = CustomNamedCurves.getByName("secp256r1");
  /** The P-256 domain parameters. */
  public static final ECDomainParameters DOMAIN =
      new ECDomainParameters(CURVE.getCurve(), CURVE.getG(), CURVE.getN(), CURVE.getH());
  private static final BigInteger N = DOMAIN.getN();

  static {
    if (DOMAIN.getCurve().getCoordinateSystem() != ECCurve.COORD_JACOBIAN) {
      throw new IllegalStateException("this BouncyCastle's P-256 is not in Jacobian coordinates, which signing assumes");
    }
  }

  static {
    BouncyCastleInit.initialiseWithoutThreadState();
  }
  private final ECPublicKeyParameters publicKey;
  private final ECPrivateKeyParameters privateKey;
  private final byte[] x;
  private final byte[] y;

  private EcP256Engine(ECPublicKeyParameters publicKey, ECPrivateKeyParameters privateKey) {
    this.publicKey = publicKey;
    this.privateKey = privateKey;
    ECPoint q = publicKey.getQ().normalize();
    this.x = fixed(q.getAffineXCoord().toBigInteger());
    this.y = fixed(q.getAffineYCoord().toBigInteger());
  }

  /**
   * An engine from JWK coordinates.
   *
   * @param x the 32-byte affine x
   * @param y the 32-byte affine y
   * @param d the 32-byte private scalar, or {@code null} for verify-only
   * @throws IllegalArgumentException if the point is not on P-256, or {@code d} does not match it
   */
  public static EcP256Engine of(byte[] x, byte[] y, byte[] d) {
    if (x.length != 32 || y.length != 32 || (d != null && d.length != 32)) {
      throw new IllegalArgumentException("a P-256 key needs 32-byte x, y (and d) values");
    }
    ECPoint q;
    try {
      q = DOMAIN.getCurve().createPoint(new BigInteger(1, x), new BigInteger(1, y));
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("the x and y values are not a point on P-256", e);
    }
    if (q.isInfinity() || !q.isValid()) {
      throw new IllegalArgumentException("the x and y values are not a point on P-256");
    }
    ECPrivateKeyParameters priv = null;
    if (d != null) {
      BigInteger s = new BigInteger(1, d);
      if (s.signum() <= 0 || s.compareTo(N) >= 0) {
        throw new IllegalArgumentException("the P-256 private scalar d is out of range");
      }
      ECPoint derived = new FixedPointCombMultiplier().multiply(DOMAIN.getG(), s).normalize();
      if (!derived.equals(q.normalize())) {
        throw new IllegalArgumentException("the P-256 private key d does not match the public point x, y");
      }
      priv = new ECPrivateKeyParameters(s, DOMAIN);
    }
    return new EcP256Engine(new ECPublicKeyParameters(q, DOMAIN), priv);
  }

  /** A new random key pair. */
  public static EcP256Engine generate(SecureRandom random) {
    BigInteger d;
    do {
      d = new BigInteger(256, random);
    } while (d.signum() == 0 || d.compareTo(N) >= 0);
    ECPoint q = new FixedPointCombMultiplier().multiply(DOMAIN.getG(), d).normalize();
    return new EcP256Engine(new ECPublicKeyParameters(q, DOMAIN), new ECPrivateKeyParameters(d, DOMAIN));
  }

  /** This key without its private part. */
  public EcP256Engine publicOnly() {
    return privateKey == null ? this : new EcP256Engine(publicKey, null);
  }

  /** The affine x coordinate, 32 bytes. */
  public byte[] x() {
    return x.clone();
  }

  /** The affine y coordinate, 32 bytes. */
  public byte[] y() {
    return y.clone();
  }

  /** The private scalar, 32 bytes; only for deliberate export. */
  public byte[] d() {
    if (privateKey == null) {
      throw new IllegalStateException("this key has no private part");
    }
    return fixed(privateKey.getD());
  }

  @Override
  public boolean canSign() {
    return privateKey != null;
  }

  @Override
  public int signatureLength() {
    return 64;
  }

  @Override
  public int sign(byte[] in, int len, byte[] out) {
    if (privateKey == null) {
      throw new IllegalStateException("this key has no private part and cannot sign");
    }
    BigInteger[] rs = signDigest(privateKey.getD(), digest(in, len));
    put(rs[0], out, 0);
    put(rs[1], out, 32);
    return 64;
  }

  /**
   * ECDSA of a SHA-256 digest with the RFC 6979 nonce: {@code r = x(kG) mod n}, {@code s =
   * k^-1 (e + d r) mod n}, as {@code ECDSASigner.generateSignature} computes them.
   */
  static BigInteger[] signDigest(BigInteger d, byte[] hash) {
    BigInteger e = new BigInteger(1, hash); // a 256-bit digest for a 256-bit n: no truncation
    HMacDSAKCalculator nonces = new HMacDSAKCalculator(new SHA256Digest());
    nonces.init(N, d, hash);
    FixedPointCombMultiplier multiplier = new FixedPointCombMultiplier();
    while (true) {
      BigInteger k = nonces.nextK();
      BigInteger r = affineX(multiplier.multiply(DOMAIN.getG(), k)).mod(N);
      if (r.signum() == 0) {
        continue;
      }
      BigInteger s = BigIntegers.modOddInverse(N, k).multiply(e.add(d.multiply(r))).mod(N);
      if (s.signum() != 0) {
        return new BigInteger[] {r, s};
      }
    }
  }

  /**
   * The affine x of a Jacobian point, {@code X / Z^2}, with Z inverted as {@code (Z b)^-1 b} for a
   * random field element b: the blinding {@code ECPoint.normalize()} applies, from our source.
   * {@code k} is in [1, n - 1], so the point is never at infinity.
   */
  private static BigInteger affineX(ECPoint p) {
    ECFieldElement z = p.getZCoord(0);
    ECFieldElement b = DOMAIN.getCurve().randomFieldElementMult(SeededRandom.source());
    ECFieldElement zInverse = z.multiply(b).invert().multiply(b);
    return p.getRawXCoord().multiply(zInverse.square()).toBigInteger();
  }

  @Override
  public boolean verify(byte[] in, int len, byte[] sig, int sigLen) {
    if (sigLen != 64) {
      return false;
    }
    BigInteger r = new BigInteger(1, sig, 0, 32);
    BigInteger s = new BigInteger(1, sig, 32, 32);
    if (r.signum() == 0 || s.signum() == 0 || r.compareTo(N) >= 0 || s.compareTo(N) >= 0) {
      return false;
    }
    ECDSASigner verifier = new ECDSASigner();
    verifier.init(false, publicKey);
    return verifier.verifySignature(digest(in, len), r, s);
  }

  /** SHA-256 with a new lightweight digest per call: nothing kept per thread, and tiny next to the curve arithmetic. */
  private static byte[] digest(byte[] in, int len) {
    SHA256Digest md = new SHA256Digest();
    md.update(in, 0, len);
    byte[] out = new byte[md.getDigestSize()];
    md.doFinal(out, 0);
    return out;
  }

  private static void put(BigInteger v, byte[] out, int off) {
    byte[] b = v.toByteArray();
    int n = Math.min(b.length, 32);
    java.util.Arrays.fill(out, off, off + 32 - n, (byte) 0);
    System.arraycopy(b, b.length - n, out, off + 32 - n, n);
  }

  private static byte[] fixed(BigInteger v) {
    byte[] out = new byte[32];
    put(v, out, 0);
    return out;
  }
}
