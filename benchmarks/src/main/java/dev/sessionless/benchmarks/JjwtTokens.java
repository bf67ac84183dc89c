package dev.sessionless.benchmarks;

import dev.sessionless.core.Algorithm;
import io.jsonwebtoken.Claims;
import io.jsonwebtoken.Jwe;
import io.jsonwebtoken.Jws;
import io.jsonwebtoken.JwtBuilder;
import io.jsonwebtoken.JwtParser;
import io.jsonwebtoken.JwtParserBuilder;
import io.jsonwebtoken.Jwts;
import io.jsonwebtoken.io.CompressionAlgorithm;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Date;
import java.util.Map;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;
import javax.crypto.SecretKey;

/**
 * jjwt (api/impl/jackson) making and reading the suite's tokens: HS256, ES256 and EdDSA on the
 * JDK's providers, {@code dir}/A256GCM with or without DEFLATE. Reading is {@code
 * Jwts.parser().verifyWith(key)} (or {@code decryptWith}) with {@code requireIssuer} and {@code
 * requireAudience}; jjwt checks {@code exp} whenever present and has no option to require a
 * {@code typ}, so the header's is checked here. Writing is {@code Jwts.builder()} with {@code
 * signWith} or {@code encryptWith} (and {@code compressWith}). Thread-safe once built.
 *
 * <p>Compression: jjwt's own {@code Jwts.ZIP.DEF} writes and expects zlib's wrapper (RFC 1950)
 * around the DEFLATE data, where RFC 7516 section 4.1.3 asks for raw DEFLATE (RFC 1951), so it
 * cannot read the other libraries' compressed JWEs nor they its. As a jjwt user would, this
 * registers {@link #RAW_DEFLATE} under {@code DEF} instead, on the parser ({@code zip().add})
 * and the builder ({@code compressWith}): jjwt's machinery around the JDK's raw {@code Deflater}
 * and {@code Inflater}.
 */
final class JjwtTokens {
  private final PeerTokens.Keys keys;
  private final PeerTokens.Profile profile;
  private final boolean zip;
  private final JwtParser parser;

  /** RFC 7516's {@code DEF}: raw DEFLATE (RFC 1951) on the JDK's {@code Deflater}/{@code Inflater}. */
  static final CompressionAlgorithm RAW_DEFLATE = new CompressionAlgorithm() {
    @Override
    public String getId() {
      return "DEF";
    }

    @Override
    public OutputStream compress(OutputStream out) {
      Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
      return new DeflaterOutputStream(out, deflater) {
        @Override
        public void close() throws IOException {
          try {
            super.close();
          } finally {
            deflater.end();
          }
        }
      };
    }

    @Override
    public InputStream decompress(InputStream in) {
      Inflater inflater = new Inflater(true);
      return new InflaterInputStream(in, inflater) {
        @Override
        public void close() throws IOException {
          try {
            super.close();
          } finally {
            inflater.end();
          }
        }
      };
    }
  };

  JjwtTokens(PeerTokens.Keys keys, PeerTokens.Profile profile, boolean zip) {
    this.keys = keys;
    this.profile = profile;
    this.zip = zip;
    JwtParserBuilder b = Jwts.parser();
    if (keys.isJwe()) {
      b.decryptWith(keys.secretKey()).zip().add(RAW_DEFLATE).and();
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
      return (zip ? b.compressWith(RAW_DEFLATE) : b).encryptWith(aes, Jwts.ENC.A256GCM).compact();
    }
    if (keys.algorithm == Algorithm.HS256) {
      return b.signWith(keys.secretKey(), Jwts.SIG.HS256).compact();
    }
    return b.signWith(keys.privateKey, keys.algorithm == Algorithm.ES256 ? Jwts.SIG.ES256 : Jwts.SIG.EdDSA).compact();
  }
}
