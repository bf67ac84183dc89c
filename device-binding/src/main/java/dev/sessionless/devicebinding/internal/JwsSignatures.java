package dev.sessionless.devicebinding.internal;

import dev.sessionless.devicebinding.DbscNames;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.security.Signature;
import java.security.interfaces.RSAPublicKey;

/**
 * ES256 and RS256 verification with the JDK's {@link Signature} (core's ECDSA engine needs the
 * optional Bouncy Castle and is internal to core; the JDK's needs nothing and is fast enough
 * for a refresh every few minutes per session).
 */
public final class JwsSignatures {
  private JwsSignatures() {}

  /**
   * Whether {@code signature} is {@code algorithm}'s signature of {@code input} by {@code key}.
   * ES256 must be the 64-byte IEEE P1363 form JWS uses (RFC 7518 section 3.4), RS256 exactly as
   * long as the modulus; anything else is simply false.
   */
  public static boolean verify(String algorithm, PublicKey key, byte[] input, byte[] signature) {
    String jdkName;
    if (algorithm.equals(DbscNames.ES256)) {
      if (signature.length != 64) {
        return false;
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
}
