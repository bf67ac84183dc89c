package dev.sessionless.benchmarks;

import com.auth0.jwt.JWT;
import com.auth0.jwt.JWTCreator;
import com.auth0.jwt.JWTVerifier;
import com.auth0.jwt.interfaces.DecodedJWT;
import dev.sessionless.core.Algorithm;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Auth0 java-jwt making and reading the suite's tokens: HS256 and ES256 only (it has neither
 * EdDSA nor JWE). Reading is {@code JWT.require(alg).withIssuer().withAudience().build().verify}
 * ({@code exp} checked when present); java-jwt cannot require a {@code typ}, so the header's is
 * checked here. Writing is {@code JWT.create()} ({@code typ} defaults to {@code JWT}). Thread-safe
 * once built.
 */
final class JavaJwtTokens {
  private final PeerTokens.Keys keys;
  private final PeerTokens.Profile profile;
  private final com.auth0.jwt.algorithms.Algorithm algorithm;
  private final JWTVerifier verifier;

  JavaJwtTokens(PeerTokens.Keys keys, PeerTokens.Profile profile) {
    this.keys = keys;
    this.profile = profile;
    algorithm = switch (keys.algorithm) {
      case HS256 -> com.auth0.jwt.algorithms.Algorithm.HMAC256(keys.secret);
      case ES256 -> com.auth0.jwt.algorithms.Algorithm.ECDSA256(
          (ECPublicKey) keys.publicKey, (ECPrivateKey) keys.privateKey);
      default -> throw new IllegalArgumentException("java-jwt has no " + keys.alg());
    };
    verifier = JWT.require(algorithm).withIssuer(profile.issuer()).withAudience(profile.audience()).build();
  }

  /** Whether java-jwt can do {@code algorithm} at all. */
  static boolean supports(Algorithm algorithm) {
    return algorithm == Algorithm.HS256 || algorithm == Algorithm.ES256;
  }

  /** Verifies and checks the claims. */
  DecodedJWT decode(String token) {
    DecodedJWT jwt = verifier.verify(token);
    PeerTokens.checkType(profile.type(), jwt.getType());
    return jwt;
  }

  /** Decodes, then reads one value of the state object {@code st}. */
  Object decodeRead(String token, String name) {
    return decode(token).getClaim("st").asMap().get(name);
  }

  /** A token of the profile's claims and {@code claims}, {@code iat}/{@code exp} from the clock. */
  @SuppressWarnings("unchecked")
  String encode(Map<String, Object> claims) {
    long now = Fixtures.nowSeconds();
    JWTCreator.Builder b = JWT.create().withKeyId(keys.kid);
    if (profile.type() != null) {
      b.withHeader(Map.of("typ", profile.type()));
    }
    b.withIssuer(profile.issuer())
        .withAudience(profile.audience())
        .withSubject(profile.subject())
        .withIssuedAt(Instant.ofEpochSecond(now))
        .withExpiresAt(Instant.ofEpochSecond(now + profile.ttlSeconds()))
        .withJWTId(profile.jwtId());
    for (Map.Entry<String, Object> e : claims.entrySet()) {
      Object v = e.getValue();
      if (v instanceof Map<?, ?> m) {
        b.withClaim(e.getKey(), (Map<String, ?>) m);
      } else if (v instanceof List<?> l) {
        b.withClaim(e.getKey(), l);
      } else {
        b.withClaim(e.getKey(), (String) v);
      }
    }
    return b.sign(algorithm);
  }
}
