package dev.sessionless.devicebinding.internal;

import dev.sessionless.core.internal.EcP256Engine;
import dev.sessionless.core.internal.FastPaths;
import dev.sessionless.devicebinding.DbscNames;
import java.lang.System.Logger.Level;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.util.Locale;

/**
 * ES256 and RS256 verification of DBSC proofs. ES256 runs on core's P-256 engine ({@link
 * EcP256Engine}: BouncyCastle's special-form P-256 arithmetic, the engine ES256 session tokens
 * use, about ten times faster than the JDK's SunEC verify); RS256 on the JDK's {@link Signature}.
 *
 * <p><b>The switch.</b> The JDK's {@code SHA256withECDSAinP1363Format} stays beside the engine so
 * an operator (or a reader comparing the two) can turn the engine off without a new build, by
 * core's fast-path convention ({@link FastPaths}): {@value #PROPERTY}{@code =off} (or {@value
 * FastPaths#ALL_PROPERTY}{@code =off}, which turns every fast path off), read once when this class
 * loads and logged once at INFO when off. Both paths accept exactly the 64-byte {@code r || s} of
 * RFC 7518 section 3.4 (a DER signature is refused before either runs) and both accept s and n - s
 * (nothing here treats a signature as identity: a challenge is single-use by its own id and time).
 * The one known difference: two valid Wycheproof vectors whose {@code k*G} has an x-coordinate of
 * at least the group order, which the JDK refuses (a false refusal, never a forgery).
 */
public final class JwsSignatures {
  /** Set to {@code off} to verify ES256 proofs with the JDK's {@code Signature} instead of core's engine. */
  public static final String PROPERTY = FastPaths.PREFIX + "dbsc-es256";

  private static volatile boolean engine = !isOff(System.getProperty(FastPaths.ALL_PROPERTY))
      && !isOff(System.getProperty(PROPERTY));

  static {
    if (!engine) {
      System.getLogger(JwsSignatures.class.getName()).log(Level.INFO, "Sessionless fast path ''dbsc-es256'' is off"
          + " ({0}=off or {1}=off): the JDK''s SunEC verifies every ES256 DBSC proof", PROPERTY,
          FastPaths.ALL_PROPERTY);
    }
  }

  private JwsSignatures() {}

  /** Whether ES256 proofs are verified by core's engine (the default) rather than the JDK's {@code Signature}. */
  public static boolean engineOn() {
    return engine;
  }

  /**
   * Turns core's engine on or off in this JVM and returns what it was: for tests and the
   * benchmark, which run the same proofs on both paths (restore it in a {@code finally}). Not for
   * production: there the property decides, once.
   */
  public static boolean useEngine(boolean on) {
    boolean was = engine;
    engine = on;
    return was;
  }

  /**
   * Whether {@code signature} is {@code algorithm}'s signature of {@code input} by {@code key}.
   * ES256 must be the 64-byte IEEE P1363 form JWS uses (RFC 7518 section 3.4), RS256 exactly as
   * long as the modulus; anything else is simply false.
   */
  public static boolean verify(String algorithm, PublicKey key, byte[] input, byte[] signature) {
    String jdkName;
    if (algorithm.equals(DbscNames.ES256)) {
      if (signature.length != 64 || !(key instanceof ECPublicKey ec)) {
        return false;
      }
      if (engine) {
        return engineOf(ec).verify(input, input.length, signature, signature.length);
      }
      jdkName = "SHA256withECDSAinP1363Format";
    } else if (algorithm.equals(DbscNames.RS256)) {
      if (!(key instanceof RSAPublicKey rsa) || signature.length != (rsa.getModulus().bitLength() + 7) / 8) {
        return false;
      }
      jdkName = "SHA256withRSA";
    } else {
      return false;
    }
    try {
      Signature verifier = Signature.getInstance(jdkName);
      verifier.initVerify(key);
      verifier.update(input);
      return verifier.verify(signature);
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  /**
   * A verify-only engine for a device key. The key was checked on the curve when it was read
   * ({@link PublicKeys#ecP256}); the engine checks it again (off the curve, or the identity, is an
   * {@code IllegalArgumentException}, which cannot happen for a key read here).
   */
  private static EcP256Engine engineOf(ECPublicKey key) {
    return EcP256Engine.of(PublicKeys.unsigned(key.getW().getAffineX(), 32),
        PublicKeys.unsigned(key.getW().getAffineY(), 32), null);
  }

  // FastPaths' rule for a switch's value (off, false or plain), which it keeps package-private.
  private static boolean isOff(String value) {
    if (value == null) {
      return false;
    }
    String v = value.strip().toLowerCase(Locale.ROOT);
    return v.equals("off") || v.equals("false") || v.equals("plain");
  }
}
