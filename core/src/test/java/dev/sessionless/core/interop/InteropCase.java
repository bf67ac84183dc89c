package dev.sessionless.core.interop;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/** Every token kind Sessionless makes: the six algorithms, and A256GCM with and without DEFLATE. */
enum InteropCase {
  HS256(Algorithm.HS256, false),
  HS384(Algorithm.HS384, false),
  HS512(Algorithm.HS512, false),
  ES256(Algorithm.ES256, false),
  EDDSA(Algorithm.EDDSA, false),
  DIR_A256GCM(Algorithm.DIR_A256GCM, false),
  DIR_A256GCM_ZIP(Algorithm.DIR_A256GCM, true);

  static final String ISSUER = "https://issuer.example";
  static final String AUDIENCE = "interop";
  static final Map<String, Object> CART = Map.of("items", List.of("mug", "beans"), "total", 1850);

  /** The state this library reads back as a record. */
  record Cart(List<String> items, int total) {}

  final Algorithm algorithm;
  final boolean zip;

  InteropCase(Algorithm algorithm, boolean zip) {
    this.algorithm = algorithm;
    this.zip = zip;
  }

  TokenCodec codec(KeySet keys, Clock clock) {
    TokenCodec.Builder b = TokenCodec.builder().keys(keys).algorithm(algorithm).issuer(ISSUER)
        .audience(AUDIENCE).timeToLive(Duration.ofMinutes(10)).clock(clock);
    if (zip) {
      b.compress(true);
    }
    return b.build();
  }

  /** The raw secret of a symmetric key, read from its JWK as a peer would. */
  static byte[] secretOf(TokenKey key) {
    String jwk = key.toJwkWithSecrets();
    String k = jwk.replaceAll(".*\"k\":\"([^\"]+)\".*", "$1");
    return Base64.getUrlDecoder().decode(k);
  }

  /** What a verifier needs of our key: the secret JWK for symmetric keys, the public JWK otherwise. */
  static String verifierJwk(TokenKey key) {
    return key.algorithm().isSymmetric() ? key.toJwkWithSecrets() : key.toPublicJwk();
  }
}
