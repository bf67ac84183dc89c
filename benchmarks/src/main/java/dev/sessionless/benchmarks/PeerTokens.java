package dev.sessionless.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sessionless.core.Algorithm;
import dev.sessionless.core.TokenKey;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPrivateKeySpec;
import java.security.spec.EdECPrivateKeySpec;
import java.security.spec.NamedParameterSpec;
import java.util.Map;
import java.util.Objects;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * What the peers share when they make and read the suite's tokens: the token's profile (the
 * claims every library writes and every reader checks) and one Sessionless key in the forms the
 * peers take. Each peer's own code is in one class beside this one ({@link Jose4jTokens}, {@link
 * NimbusTokens}, {@link JjwtTokens}, {@link JavaJwtTokens}), configured the way its
 * documentation shows, so every benchmark (the older per-algorithm ones, the matrix and the
 * propagation benchmark) times the same peer code.
 */
final class PeerTokens {
  private PeerTokens() {}

  /**
   * What a token says and what a reader checks, the same for every library: the registered
   * claims written ({@code iss}, {@code aud} as a plain string, {@code sub}, {@code iat}, {@code
   * exp}, {@code jti}), the {@code typ} header written and required when not {@code null}.
   * Readers check the signature (or decrypt), {@code alg}, {@code exp}, {@code iss}, {@code aud}
   * and the {@code typ}.
   */
  record Profile(String issuer, String audience, String subject, String jwtId, long ttlSeconds, String type) {
    /** The suite's browser session token: no {@code typ}. */
    static final Profile SESSION = new Profile(
        Fixtures.ISSUER, Fixtures.AUDIENCE, Fixtures.SUBJECT, Fixtures.SESSION_ID, Fixtures.TTL_SECONDS, null);

    Profile {
      Objects.requireNonNull(issuer, "issuer");
      Objects.requireNonNull(audience, "audience");
      Objects.requireNonNull(subject, "subject");
      Objects.requireNonNull(jwtId, "jwtId");
    }
  }

  /**
   * One Sessionless key as the peers take it: the secret (HS256, {@code dir}), or the JDK's
   * public and private key (ES256, EdDSA), read from the key's JWK as a peer would.
   */
  static final class Keys {
    final String kid;
    final Algorithm algorithm;
    final byte[] secret;
    final PublicKey publicKey;
    final PrivateKey privateKey;

    private Keys(String kid, Algorithm algorithm, byte[] secret, PublicKey publicKey, PrivateKey privateKey) {
      this.kid = kid;
      this.algorithm = algorithm;
      this.secret = secret;
      this.publicKey = publicKey;
      this.privateKey = privateKey;
    }

    /** The key's JOSE {@code alg}. */
    String alg() {
      return algorithm.joseName();
    }

    boolean isJwe() {
      return algorithm == Algorithm.DIR_A256GCM;
    }

    /** The secret as a JCA key: {@code HmacSHA256} for HS256, {@code AES} for {@code dir}. */
    SecretKey secretKey() {
      if (secret == null) {
        throw new IllegalStateException(alg() + " has no secret");
      }
      return new SecretKeySpec(secret, isJwe() ? "AES" : "HmacSHA256");
    }

    /** The public key for verifying, or the secret key (HS256, {@code dir}). */
    java.security.Key verificationKey() {
      return secret != null ? secretKey() : publicKey;
    }

    /** The private key for signing, or the secret key (HS256, {@code dir}). */
    java.security.Key signingKey() {
      return secret != null ? secretKey() : privateKey;
    }
  }

  /** {@code key} in the peers' forms; its private part too when it has one. */
  static Keys keys(TokenKey key) {
    Algorithm alg = key.algorithm();
    try {
      JsonNode jwk = Fixtures.MAPPER.readTree(key.toJwkWithSecrets());
      return switch (alg) {
        case HS256, DIR_A256GCM -> new Keys(key.kid(), alg, bytes(jwk, "k"), null, null);
        case ES256 -> {
          ECPublicKey pub = Fixtures.ecPublicKey(key);
          yield new Keys(key.kid(), alg, null, pub, jwk.has("d") ? ecPrivateKey(pub.getParams(), bytes(jwk, "d")) : null);
        }
        case EDDSA -> new Keys(key.kid(), alg, null, Fixtures.ed25519PublicKey(key),
            jwk.has("d") ? ed25519PrivateKey(bytes(jwk, "d")) : null);
        default -> throw new IllegalArgumentException("no peer set-up for " + alg);
      };
    } catch (Exception e) {
      throw new IllegalStateException("cannot convert key " + key.kid() + " for the peers: " + e, e);
    }
  }

  private static byte[] bytes(JsonNode jwk, String member) {
    return Fixtures.B64URL_DECODER.decode(jwk.get(member).textValue());
  }

  private static PrivateKey ecPrivateKey(ECParameterSpec params, byte[] d) throws GeneralSecurityException {
    return KeyFactory.getInstance("EC").generatePrivate(new ECPrivateKeySpec(new java.math.BigInteger(1, d), params));
  }

  private static PrivateKey ed25519PrivateKey(byte[] d) throws GeneralSecurityException {
    return KeyFactory.getInstance("Ed25519").generatePrivate(new EdECPrivateKeySpec(NamedParameterSpec.ED25519, d));
  }

  /** Fails unless the header's {@code typ} is the one required (nothing is required when {@code expected} is null). */
  static void checkType(String expected, Object actual) {
    if (expected != null && !expected.equals(actual)) {
      throw new SecurityException("typ is " + actual + ", wanted " + expected);
    }
  }

  /** One value of a decoded state object, as a peer hands it back (a JSON object as a map). */
  static Object stateValue(Object state, String name) {
    if (!(state instanceof Map<?, ?> m)) {
      throw new IllegalStateException("the st claim is not an object: " + state);
    }
    return m.get(name);
  }
}
