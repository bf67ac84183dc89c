package dev.sessionless.core;

import java.util.Optional;

/**
 * The token algorithms Sessionless makes and accepts. Each key is bound to exactly one of
 * them: a token's header {@code alg} must equal the algorithm of the key its {@code kid}
 * names, so a token can never choose its own algorithm.
 *
 * <p>See RFC 7518 (JSON Web Algorithms) and RFC 8037 (EdDSA for JOSE).
 */
public enum Algorithm {
  /** HMAC with SHA-256, a JWS. The default; needs a secret of at least 32 bytes. */
  HS256("HS256", null, 32),
  /** HMAC with SHA-384, a JWS; needs a secret of at least 48 bytes. */
  HS384("HS384", null, 48),
  /** HMAC with SHA-512, a JWS; needs a secret of at least 64 bytes. */
  HS512("HS512", null, 64),
  /** ECDSA on P-256 with SHA-256, a JWS that others verify with the public key. */
  ES256("ES256", null, 0),
  /** Ed25519, a JWS that others verify with the public key. */
  EDDSA("EdDSA", null, 0),
  /** Direct encryption with AES-256-GCM ({@code alg: dir, enc: A256GCM}), a JWE; a 32-byte key. */
  DIR_A256GCM("dir", "A256GCM", 32);

  private final String joseName;
  private final String encryption;
  private final int minSecretBytes;

  Algorithm(String joseName, String encryption, int minSecretBytes) {
    this.joseName = joseName;
    this.encryption = encryption;
    this.minSecretBytes = minSecretBytes;
  }

  /** The header {@code alg} value, e.g. {@code "HS256"} or {@code "dir"}. */
  public String joseName() {
    return joseName;
  }

  /** The header {@code enc} value for encrypting algorithms, empty for signing ones. */
  public Optional<String> encryption() {
    return Optional.ofNullable(encryption);
  }

  /** Whether tokens of this algorithm are encrypted (JWE) rather than only signed (JWS). */
  public boolean isEncrypting() {
    return encryption != null;
  }

  /** Whether this algorithm uses a shared secret (HMAC or AES) rather than a key pair. */
  public boolean isSymmetric() {
    return minSecretBytes > 0;
  }

  /**
   * The least number of secret bytes a key of this algorithm needs (exactly this many for
   * AES), or 0 for key-pair algorithms.
   */
  public int minSecretBytes() {
    return minSecretBytes;
  }

  /**
   * The algorithm whose header {@code alg} (and, for JWE, {@code enc}) is given.
   *
   * @param alg the header {@code alg}
   * @param enc the header {@code enc}, or {@code null} for a JWS
   * @return the algorithm, or empty when Sessionless does not support that combination
   */
  public static Optional<Algorithm> fromJose(String alg, String enc) {
    for (Algorithm a : values()) {
      if (a.joseName.equals(alg) && java.util.Objects.equals(a.encryption, enc)) {
        return Optional.of(a);
      }
    }
    return Optional.empty();
  }
}
