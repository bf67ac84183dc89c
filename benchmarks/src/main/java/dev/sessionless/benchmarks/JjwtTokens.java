package dev.sessionless.benchmarks;

import dev.sessionless.core.Algorithm;
import io.jsonwebtoken.Claims;
import io.jsonwebtoken.Jwe;
import io.jsonwebtoken.Jws;
import io.jsonwebtoken.JwtBuilder;
import io.jsonwebtoken.JwtParser;
import io.jsonwebtoken.JwtParserBuilder;
import io.jsonwebtoken.Jwts;
import java.util.Date;
import java.util.Map;
import javax.crypto.SecretKey;

/**
 * jjwt (api/impl/jackson) making and reading the suite's tokens: HS256, ES256 and EdDSA on the
 * JDK's providers, {@code dir}/A256GCM with or without DEFLATE. Reading is {@code
 * Jwts.parser().verifyWith(key)} (or {@code decryptWith}) with {@code requireIssuer} and {@code
 * requireAudience}; jjwt checks {@code exp} whenever present and has no option to require a
 * {@code typ}, so the header's is checked here. Writing is {@code Jwts.builder()} with {@code
 * signWith} or {@code encryptWith} (and {@code compressWith(Jwts.ZIP.DEF)}). Thread-safe once built.
 */
final class JjwtTokens {
  private final PeerTokens.Keys keys;
  private final PeerTokens.Profile profile;
  private final boolean zip;
  private final JwtParser parser;

  JjwtTokens(PeerTokens.Keys keys, PeerTokens.Profile profile, boolean zip) {
    this.keys = keys;
    this.profile = profile;
    this.zip = zip;
    JwtParserBuilder b = Jwts.parser();
    if (keys.isJwe()) {
      b.decryptWith(keys.secretKey());
    } else if (keys.secret != null) {
      b.verifyWith(keys.secretKey());
    } else {
      b.verifyWith(keys.publicKey);
    }
    parser = b.requireIssuer(profile.issuer()).requireAudience(profile.audience()).build();
  }

  /** Verifies (or decrypts) and checks the claims; returns the payload. */
  Claims decode(String token) {
    if (keys.isJwe()) {
      Jwe<Claims> jwe = parser.parseEncryptedClaims(token);
      PeerTokens.checkType(profile.type(), jwe.getHeader().getType());
      return jwe.getPayload();
    }
    Jws<Claims> jws = parser.parseSignedClaims(token);
    PeerTokens.checkType(profile.type(), jws.getHeader().getType());
    return jws.getPayload();
  }

  /** Decodes, then reads one value of the state object {@code st}. */
  Object decodeRead(String token, String name) {
    return decode(token).get("st", Map.class).get(name);
  }

  /** A token of the profile's claims and {@code claims}, {@code iat}/{@code exp} from the clock. */
  @SuppressWarnings("deprecation") // audience().single(): a plain-string "aud" like everyone else's
  String encode(Map<String, Object> claims) {
    long now = Fixtures.nowSeconds();
    JwtBuilder.BuilderHeader h = Jwts.builder().header().keyId(keys.kid);
    if (profile.type() != null) {
      h.type(profile.type());
    }
    JwtBuilder b = h.and()
        .issuer(profile.issuer())
        .audience().single(profile.audience())
        .subject(profile.subject())
        .issuedAt(new Date(now * 1000))
        .expiration(new Date((now + profile.ttlSeconds()) * 1000))
        .id(profile.jwtId());
    for (Map.Entry<String, Object> e : claims.entrySet()) {
      b = b.claim(e.getKey(), e.getValue());
    }
    if (keys.isJwe()) {
      SecretKey aes = keys.secretKey();
      return (zip ? b.compressWith(Jwts.ZIP.DEF) : b).encryptWith(aes, Jwts.ENC.A256GCM).compact();
    }
    if (keys.algorithm == Algorithm.HS256) {
      return b.signWith(keys.secretKey(), Jwts.SIG.HS256).compact();
    }
    return b.signWith(keys.privateKey, keys.algorithm == Algorithm.ES256 ? Jwts.SIG.ES256 : Jwts.SIG.EdDSA).compact();
  }
}
