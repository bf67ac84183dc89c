package dev.sessionless.core.interop;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.TokenCodec;
import java.time.Clock;
import java.time.Duration;

/**
 * Every kind of token Sessionless makes: the six algorithms, with {@code dir} + {@code A256GCM}
 * once plain and once compressed ({@code zip: DEF}).
 */
enum InteropCase {
  HS256(Algorithm.HS256, false),
  HS384(Algorithm.HS384, false),
  HS512(Algorithm.HS512, false),
  ES256(Algorithm.ES256, false),
  EDDSA(Algorithm.EDDSA, false),
  DIR_A256GCM(Algorithm.DIR_A256GCM, false),
  DIR_A256GCM_DEF(Algorithm.DIR_A256GCM, true);

  /** Our codecs' time-to-live, so {@code exp} is {@code iat} plus this. */
  static final Duration TTL = Duration.ofMinutes(10);

  final Algorithm algorithm;
  final boolean zip;

  InteropCase(Algorithm algorithm, boolean zip) {
    this.algorithm = algorithm;
    this.zip = zip;
  }

  /** Whether the token is a JWS (three segments) rather than a JWE (five). */
  boolean signs() {
    return !algorithm.isEncrypting();
  }

  /** The header {@code alg}. */
  String alg() {
    return algorithm.joseName();
  }

  /** A codec of this kind with the fixtures' issuer and audience and {@link #TTL}. */
  TokenCodec codec(KeySource keys, Clock clock) {
    TokenCodec.Builder b = TokenCodec.builder()
        .keys(keys)
        .algorithm(algorithm)
        .issuer(InteropFixtures.ISSUER)
        .audience(InteropFixtures.AUDIENCE)
        .timeToLive(TTL)
        .clock(clock);
    if (zip) {
      b.compress(true);
    }
    return b.build();
  }
}
