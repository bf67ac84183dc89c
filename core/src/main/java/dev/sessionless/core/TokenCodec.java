package dev.sessionless.core;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.sessionless.core.TokenException.Reason;
import dev.sessionless.core.internal.AesGcmEngine;
import dev.sessionless.core.internal.Base64Url;
import dev.sessionless.core.internal.ByteSink;
import dev.sessionless.core.internal.ClaimsReader;
import dev.sessionless.core.internal.Deflate;
import dev.sessionless.core.internal.HeaderIndex;
import dev.sessionless.core.internal.HeaderParser;
import dev.sessionless.core.internal.Json;
import dev.sessionless.core.internal.KeyEngine;
import dev.sessionless.core.internal.ParsedClaims;
import dev.sessionless.core.internal.RawJson;
import dev.sessionless.core.internal.Scratch;
import dev.sessionless.core.internal.Utf8;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Makes and reads session tokens: compact JWS ({@code HS256} by default, {@code HS384}, {@code
 * HS512}, {@code ES256}, {@code EdDSA}) or compact JWE ({@code dir} + {@code A256GCM}), readable
 * by any JOSE library.
 *
 * <pre>{@code
 * TokenCodec codec = TokenCodec.builder()
 *     .keys(KeySet.of(TokenKey.generate("k1", Algorithm.HS256)))
 *     .issuer("https://shop.example").audience("shop")
 *     .timeToLive(Duration.ofMinutes(30))
 *     .build();
 * String token = codec.encode(Claims.builder().subject("alice").put("cart", cart).build());
 * SessionToken session = codec.decode(token);         // or TokenException
 * Cart again = session.get("cart", Cart.class).orElseThrow();
 * }</pre>
 *
 * <p><b>Security.</b> A token's {@code alg} must equal the algorithm of the key its {@code kid}
 * names, and that algorithm must be one the codec accepts; {@code none} is never accepted.
 * Tokens over {@link Builder#maxTokenLength(int)} are refused before any decoding. MACs are
 * compared in constant time. Decoding is strict: only canonical base64url, strict UTF-8 and
 * JSON, no duplicated claims, typed registered claims. See {@link TokenException.Reason} for
 * every rejection.
 *
 * <p><b>Verification cache.</b> Unless switched off, tokens that verified are remembered (by
 * their whole text) so the same token is not verified again: a bounded cache, whose hits are
 * re-checked against {@code exp} and the current key set, and which empties when the key set
 * changes.
 *
 * <p>Thread-safe; build one per configuration and share it. Spec: RFC 7515 (JWS), RFC 7516
 * (JWE), RFC 7519 (JWT).
 */
public final class TokenCodec {
  /**
   * The longest time-to-live a token may have, for the codec and for one token: 400 days,
   * the longest any major browser keeps a cookie.
   */
  public static final Duration MAX_TIME_TO_LIVE = Duration.ofDays(400);

  private static final SecureRandom RANDOM = new SecureRandom();
  private static final byte DOT = '.';

  private final KeySource keys;
  private final Algorithm algorithm;
  private final Set<Algorithm> accepted;
  private final String issuer;
  private final String audience;
  private final char[] issuerChars;
  private final char[] audienceChars;
  private final long ttlSeconds;
  private final long leewaySeconds;
  private final Clock clock;
  private final int maxTokenLength;
  private final boolean compress;
  private final ObjectMapper mapper;
  private final Cache<CacheKey, SessionToken> cache;
  private volatile KeySet cachedUnder;

  private TokenCodec(Builder b) {
    this.keys = b.keys;
    this.algorithm = b.algorithm;
    this.accepted = b.accepted;
    this.issuer = b.issuer;
    this.audience = b.audience;
    this.issuerChars = b.issuer.toCharArray();
    this.audienceChars = b.audience.toCharArray();
    this.ttlSeconds = b.timeToLive.getSeconds();
    this.leewaySeconds = b.clockSkew.getSeconds();
    this.clock = b.clock;
    this.maxTokenLength = b.maxTokenLength;
    this.compress = b.compress;
    this.mapper = b.mapper;
    this.cache = b.cacheSize == 0 ? null
        : Caffeine.newBuilder().maximumSize(b.cacheSize).executor(Runnable::run).build();
  }

  /** A builder; {@code keys}, {@code issuer}, {@code audience} and {@code timeToLive} are required. */
  public static Builder builder() {
    return new Builder();
  }

  /** The algorithm this codec signs or encrypts with. */
  public Algorithm algorithm() {
    return algorithm;
  }

  // ---------------------------------------------------------------------------------- encode

  /**
   * Makes a token of {@code claims}, signed (or encrypted) with the key set's current signing
   * key for this codec's algorithm, issued now and expiring after the time-to-live.
   *
   * @throws TokenException {@code NO_SIGNING_KEY} if no key may sign now; {@code STATE_MAPPING}
   *     if a state value cannot be written as JSON; {@code TOO_LARGE} if the token would exceed
   *     the maximum token length; {@code INTERNAL} if the clock reads a time before 1970 or so
   *     late that the expiry would pass the year 9999
   * @throws IllegalArgumentException if the claims' {@code notBefore} is not before the token's
   *     expiry (the token would never be valid)
   */
  public String encode(Claims claims) {
    Objects.requireNonNull(claims, "claims");
    KeySet set = keys.current();
    long now = Math.floorDiv(clock.millis(), 1000);
    TokenKey key = set.signingKeyOrNull(algorithm, now);
    if (key == null) {
      throw new TokenException(Reason.NO_SIGNING_KEY,
          "no key in the key set can sign with " + algorithm.joseName() + " now: add an active "
              + algorithm.joseName() + " key with its private part, or check the lifecycle instants");
    }
    long ttl = claims.timeToLive().map(Duration::getSeconds).orElse(ttlSeconds);
    long exp = now + ttl;
    if (now < 0 || exp > Claims.MAX_EPOCH_SECOND) {
      throw new TokenException(Reason.INTERNAL, "the clock reads " + java.time.Instant.ofEpochSecond(now)
          + ", where no token this codec could read can be made: check the clock");
    }
    if (claims.notBefore().isPresent() && claims.notBefore().get().getEpochSecond() >= exp) {
      throw new IllegalArgumentException("the claims' notBefore " + claims.notBefore().get()
          + " is not before the token's expiry " + java.time.Instant.ofEpochSecond(exp)
          + ": such a token would never be valid; move notBefore earlier or the time-to-live later");
    }
    ByteSink payload = ByteSink.take();
    Scratch scratch = Scratch.take();
    try {
      writePayload(payload, claims, now, exp);
      byte[] token = algorithm.isEncrypting()
          ? encrypt(key, payload.array(), payload.size(), scratch)
          : sign(key, payload.array(), payload.size(), scratch);
      return new String(token, StandardCharsets.ISO_8859_1);
    } finally {
      scratch.release();
      payload.release();
    }
  }

  private void writePayload(ByteSink sink, Claims claims, long now, long exp) {
    try (JsonGenerator g = Json.STRICT.createGenerator(sink)) {
      g.writeStartObject();
      g.writeStringField("iss", issuer);
      g.writeStringField("aud", audience);
      if (claims.subject().isPresent()) {
        g.writeStringField("sub", claims.subject().get());
      }
      g.writeNumberField("iat", now);
      if (claims.notBefore().isPresent()) {
        g.writeNumberField("nbf", claims.notBefore().get().getEpochSecond());
      }
      g.writeNumberField("exp", exp);
      g.writeStringField("jti", claims.sessionId().orElseGet(TokenCodec::newSessionId));
      Map<String, Object> state = claims.state();
      if (!state.isEmpty()) {
        g.writeObjectFieldStart(ClaimsReader.STATE_CLAIM);
        for (Map.Entry<String, Object> e : state.entrySet()) {
          g.writeFieldName(e.getKey());
          Object v = e.getValue();
          if (v instanceof RawJson) {
            g.writeRawValue(((RawJson) v).json());
          } else {
            try {
              mapper.writeValue(g, v);
            } catch (IOException | RuntimeException ex) {
              throw new TokenException(Reason.STATE_MAPPING,
                  "state value '" + e.getKey() + "' of type " + v.getClass().getName()
                      + " cannot be written as JSON: make it a record, bean, map or list Jackson can write",
                  ex);
            }
          }
        }
        g.writeEndObject();
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new IllegalStateException("writing a payload to memory failed", e);
    }
  }

  /** 128 random bits, base64url: a new session id. */
  static String newSessionId() {
    byte[] b = new byte[16];
    RANDOM.nextBytes(b);
    return Base64Url.encode(b);
  }

  private byte[] sign(TokenKey key, byte[] payload, int len, Scratch scratch) {
    byte[] header = key.header(false);
    KeyEngine engine = key.engine();
    int total = header.length + 1 + Base64Url.encodedLength(len) + 1
        + Base64Url.encodedLength(engine.signatureLength());
    checkLength(total);
    byte[] out = new byte[total];
    System.arraycopy(header, 0, out, 0, header.length);
    int o = header.length;
    out[o++] = DOT;
    o += Base64Url.encode(payload, 0, len, out, o);
    byte[] sig = scratch.mac;
    int sigLen = engine.sign(out, o, sig);
    out[o++] = DOT;
    Base64Url.encode(sig, 0, sigLen, out, o);
    return out;
  }

  private byte[] encrypt(TokenKey key, byte[] payload, int len, Scratch scratch) {
    byte[] plain = payload;
    int plainLen = len;
    if (compress) {
      plain = Deflate.deflate(payload, len);
      plainLen = plain.length;
    }
    byte[] header = key.header(compress);
    int ctLen = plainLen + AesGcmEngine.TAG_BYTES;
    int total = header.length + 2 + Base64Url.encodedLength(AesGcmEngine.IV_BYTES) + 1
        + Base64Url.encodedLength(plainLen) + 1 + Base64Url.encodedLength(AesGcmEngine.TAG_BYTES);
    checkLength(total);
    byte[] ct = new byte[ctLen];
    byte[] iv = scratch.iv;
    ((AesGcmEngine) key.engine()).encrypt(header, header.length, plain, plainLen, RANDOM, iv, ct);
    byte[] out = new byte[total];
    System.arraycopy(header, 0, out, 0, header.length);
    int o = header.length;
    out[o++] = DOT;
    out[o++] = DOT; // dir: the encrypted key is empty
    o += Base64Url.encode(iv, 0, AesGcmEngine.IV_BYTES, out, o);
    out[o++] = DOT;
    o += Base64Url.encode(ct, 0, plainLen, out, o);
    out[o++] = DOT;
    Base64Url.encode(ct, plainLen, AesGcmEngine.TAG_BYTES, out, o);
    return out;
  }

  private void checkLength(int total) {
    if (total > maxTokenLength) {
      throw new TokenException(Reason.TOO_LARGE,
          "the token would be " + total + " characters, over the limit of " + maxTokenLength
              + ": keep less state in the session or raise maxTokenLength");
    }
  }

  // ---------------------------------------------------------------------------------- decode

  /**
   * Verifies (or decrypts) a token and checks its claims.
   *
   * @return the verified token
   * @throws TokenException for every rejection, whatever the input; never another exception
   */
  public SessionToken decode(String token) {
    if (token == null) {
      throw new TokenException(Reason.MALFORMED, "no token was given");
    }
    int n = token.length();
    if (n > maxTokenLength) {
      throw new TokenException(Reason.TOO_LARGE,
          "the token is " + n + " characters, over the limit of " + maxTokenLength);
    }
    try {
      KeySet set = keys.current();
      if (cache != null) {
        SessionToken hit = cachedOrNull(token, set);
        if (hit != null) {
          return hit;
        }
      }
      SessionToken verified = verify(token, n, set);
      if (cache != null) {
        cache.put(new CacheKey(token), verified);
      }
      return verified;
    } catch (TokenException e) {
      throw e;
    } catch (RuntimeException e) {
      // Not the token's fault: a bug, a broken key source or a missing JCA algorithm. Saying
      // MALFORMED here would log every user out without anyone noticing.
      throw new TokenException(Reason.INTERNAL,
          "decoding failed on this side, not because of the token (" + e.getClass().getName()
              + "): see the cause; this is a bug or a broken deployment", e);
    }
  }

  private SessionToken cachedOrNull(String token, KeySet set) {
    KeySet under = cachedUnder;
    if (set != under) {
      if (under == null || !set.sameContentAs(under)) {
        // The keys changed: drop everything verified under other keys.
        cache.invalidateAll();
      }
      cachedUnder = set;
    }
    SessionToken hit = cache.getIfPresent(new CacheKey(token));
    if (hit == null || (hit.keySet != set && !hit.keySet.sameContentAs(set))) {
      return null;
    }
    long now = Math.floorDiv(clock.millis(), 1000);
    if (!hit.key.verifiesAt(now)
        || timeClaimsFail(hit.expiresAtSecond(), hit.notBeforeSecond(), hit.issuedAtSecond(), now)) {
      return null; // verify again, which rejects with the precise reason
    }
    return hit;
  }

  /** Whether exp, nbf or iat rule the token out at {@code now}; {@link #checkClaims} says which. */
  private boolean timeClaimsFail(long exp, long nbf, long iat, long now) {
    return now - leewaySeconds >= exp
        || (nbf != ParsedClaims.ABSENT && now + leewaySeconds < nbf)
        || iat > now + leewaySeconds;
  }

  private SessionToken verify(String token, int n, KeySet set) {
    int d1 = token.indexOf('.');
    int d2 = d1 < 0 ? -1 : token.indexOf('.', d1 + 1);
    if (d2 < 0) {
      throw new TokenException(Reason.MALFORMED, "a token has 3 (JWS) or 5 (JWE) dot-separated segments");
    }
    int d3 = token.indexOf('.', d2 + 1);
    int d4 = -1;
    if (d3 >= 0) {
      d4 = token.indexOf('.', d3 + 1);
      if (d4 < 0 || token.indexOf('.', d4 + 1) >= 0) {
        throw new TokenException(Reason.MALFORMED, "a token has 3 (JWS) or 5 (JWE) dot-separated segments");
      }
    }
    // Characters beyond Latin-1 become '?', and both those and Latin-1 non-ASCII bytes fail the
    // strict base64url decoding below, so this conversion cannot smuggle anything in. A surrogate
    // pair becomes a single '?', though, which would shift every byte index after it away from
    // the char indexes found above: refuse such a token here.
    byte[] b = token.getBytes(StandardCharsets.ISO_8859_1);
    if (b.length != n) {
      throw new TokenException(Reason.MALFORMED, "the token holds characters outside ASCII");
    }

    long now = Math.floorDiv(clock.millis(), 1000);
    TokenKey key;
    boolean zip;
    HeaderIndex.Entry<TokenKey> known = set.headers().find(b, 0, d1);
    if (known != null) {
      key = known.key;
      zip = known.zip;
    } else {
      HeaderParser.Header h = HeaderParser.parse(b, 0, d1);
      key = resolve(h, set);
      zip = h.zip != null;
    }
    if (!key.verifiesAt(now)) {
      throw new TokenException(Reason.UNKNOWN_KEY,
          "the key '" + key.kid() + "' has expired and no longer verifies tokens");
    }
    if (!accepted.contains(key.algorithm())) {
      throw new TokenException(Reason.ALGORITHM_MISMATCH,
          "this codec does not accept " + key.algorithm().joseName() + " tokens");
    }
    if ((d3 >= 0) != key.algorithm().isEncrypting()) {
      throw new TokenException(Reason.MALFORMED,
          "the token's segment count does not fit its algorithm " + key.algorithm().joseName());
    }
    Scratch scratch = Scratch.take();
    try {
      return verifyPayload(b, n, d1, d2, d3, d4, set, key, zip, now, scratch);
    } finally {
      scratch.release();
    }
  }

  private SessionToken verifyPayload(byte[] b, int n, int d1, int d2, int d3, int d4, KeySet set,
      TokenKey key, boolean zip, long now, Scratch scratch) {
    boolean jwe = d3 >= 0;
    byte[] payload;
    int payloadLen;
    if (!jwe) {
      KeyEngine engine = key.engine();
      if (Base64Url.decodedLength(n - d2 - 1) != engine.signatureLength()) {
        if (!base64UrlAlphabetOnly(b, d2 + 1, n)) {
          // Padding, whitespace (a trailing newline), '+', '/' or non-ASCII: not a signature at all.
          throw new TokenException(Reason.MALFORMED, "the signature is not canonical base64url");
        }
        throw new TokenException(Reason.BAD_SIGNATURE, "the signature has the wrong length");
      }
      int sigLen = Base64Url.decode(b, d2 + 1, n, scratch.sig, 0);
      if (sigLen < 0) {
        throw new TokenException(Reason.MALFORMED, "the signature is not canonical base64url");
      }
      if (!engine.verify(b, d2, scratch.sig, sigLen)) {
        throw new TokenException(Reason.BAD_SIGNATURE, "the signature does not verify");
      }
      payloadLen = Base64Url.decodedLength(d2 - d1 - 1);
      payload = payloadLen < 0 ? null : scratch.payload(payloadLen);
      if (payload == null || Base64Url.decode(b, d1 + 1, d2, payload, 0) != payloadLen) {
        throw new TokenException(Reason.MALFORMED, "the payload is not canonical base64url");
      }
    } else {
      int ctLen = jweCiphertextLength(b, n, d1, d2, d3, d4, scratch);
      payload = scratch.payload(ctLen);
      payloadLen = decrypt(b, n, d1, d3, d4, ctLen, key, scratch, payload);
      if (zip) {
        byte[] inflated = scratch.inflated(4 * maxTokenLength);
        int k = Deflate.inflate(payload, payloadLen, inflated, 4 * maxTokenLength);
        if (k == -2) {
          throw new TokenException(Reason.TOO_LARGE,
              "the compressed payload inflates beyond " + 4 * maxTokenLength + " bytes");
        } else if (k < 0) {
          throw new TokenException(Reason.MALFORMED, "the compressed payload is not valid DEFLATE");
        }
        payload = inflated;
        payloadLen = k;
      }
    }
    if (!Utf8.isValid(payload, 0, payloadLen)) {
      throw new TokenException(Reason.MALFORMED, "the payload is not valid UTF-8");
    }
    ParsedClaims c = scratch.claims;
    ClaimsReader.read(payload, payloadLen, issuerChars, audienceChars, c);
    checkClaims(c, now);
    byte[] state = c.stateStart < 0 ? null : Arrays.copyOfRange(payload, c.stateStart, c.stateEnd);
    return new SessionToken(key, set, c.id, c.subject, c.issuedAt, c.expiresAt, c.notBefore, state, mapper);
  }

  /** Whether {@code b[from, to)} holds only base64url alphabet characters (only on the rejection path). */
  private static boolean base64UrlAlphabetOnly(byte[] b, int from, int to) {
    for (int i = from; i < to; i++) {
      int c = b[i];
      if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_')) {
        return false;
      }
    }
    return true;
  }

  /** Checks a dir JWE's framing, decodes its IV into the scratch, and returns its ciphertext length. */
  private static int jweCiphertextLength(byte[] b, int n, int d1, int d2, int d3, int d4, Scratch scratch) {
    if (d2 != d1 + 1) {
      throw new TokenException(Reason.MALFORMED, "a dir JWE must have an empty encrypted-key segment");
    }
    if (Base64Url.decodedLength(d3 - d2 - 1) != AesGcmEngine.IV_BYTES
        || Base64Url.decode(b, d2 + 1, d3, scratch.iv, 0) != AesGcmEngine.IV_BYTES) {
      throw new TokenException(Reason.MALFORMED, "the JWE IV must be 96 bits of canonical base64url");
    }
    int ctLen = Base64Url.decodedLength(d4 - d3 - 1);
    if (ctLen < 0 || Base64Url.decodedLength(n - d4 - 1) != AesGcmEngine.TAG_BYTES) {
      throw new TokenException(Reason.MALFORMED, "the JWE tag must be 128 bits");
    }
    return ctLen;
  }

  /** Decrypts into {@code plain} (room for {@code ctLen} bytes) and returns the plaintext length. */
  private static int decrypt(byte[] b, int n, int d1, int d3, int d4, int ctLen, TokenKey key,
      Scratch scratch, byte[] plain) {
    byte[] work = scratch.work(ctLen + AesGcmEngine.TAG_BYTES);
    if (Base64Url.decode(b, d3 + 1, d4, work, 0) != ctLen
        || Base64Url.decode(b, d4 + 1, n, work, ctLen) != AesGcmEngine.TAG_BYTES) {
      throw new TokenException(Reason.MALFORMED, "the JWE ciphertext or tag is not canonical base64url");
    }
    int k = ((AesGcmEngine) key.engine())
        .decrypt(b, d1, scratch.iv, work, ctLen + AesGcmEngine.TAG_BYTES, plain);
    if (k < 0) {
      throw new TokenException(Reason.DECRYPTION_FAILED, "the token does not decrypt under its key");
    }
    return k;
  }

  private TokenKey resolve(HeaderParser.Header h, KeySet set) {
    if (h.alg == null) {
      throw new TokenException(Reason.MALFORMED, "the header has no alg");
    }
    if (h.alg.equalsIgnoreCase("none")) {
      throw new TokenException(Reason.ALGORITHM_MISMATCH, "unsigned tokens (alg none) are never accepted");
    }
    if (h.kid == null) {
      throw new TokenException(Reason.UNKNOWN_KEY, "the header names no key (kid)");
    }
    TokenKey key = set.keyOrNull(h.kid);
    if (key == null) {
      TokenException unknown;
      try {
        keys.unknownKeyId(h.kid);
        unknown = new TokenException(Reason.UNKNOWN_KEY, "the key set holds no key with the token's kid");
      } catch (RuntimeException e) {
        // The token is rejected whatever the hook does; its failure travels as the cause.
        unknown = new TokenException(Reason.UNKNOWN_KEY, "the key set holds no key with the token's kid", e);
      }
      throw unknown;
    }
    Algorithm a = key.algorithm();
    if (!a.joseName().equals(h.alg) || !Objects.equals(a.encryption().orElse(null), h.enc)) {
      throw new TokenException(Reason.ALGORITHM_MISMATCH,
          "the token's alg does not match the algorithm of key '" + key.kid() + "' (" + a.joseName() + ")");
    }
    if (h.zip != null && (!a.isEncrypting() || !h.zip.equals("DEF"))) {
      throw new TokenException(Reason.UNSUPPORTED_HEADER,
          a.isEncrypting() ? "only zip DEF is supported" : "a signed token must not carry zip");
    }
    return key;
  }

  private void checkClaims(ParsedClaims c, long now) {
    if (!c.issuerPresent) {
      throw missing("iss");
    }
    if (!c.issuerMatched) {
      throw new TokenException(Reason.WRONG_ISSUER, "the token was issued by another issuer");
    }
    if (!c.audiencePresent) {
      throw missing("aud");
    }
    if (!c.audienceMatched) {
      throw new TokenException(Reason.WRONG_AUDIENCE, "the token was issued for another audience");
    }
    if (c.expiresAt == ParsedClaims.ABSENT) {
      throw missing("exp");
    }
    if (c.issuedAt == ParsedClaims.ABSENT) {
      throw missing("iat");
    }
    if (c.id == null) {
      throw missing("jti");
    }
    if (now - leewaySeconds >= c.expiresAt) {
      throw new TokenException(Reason.EXPIRED, "the token expired at " + java.time.Instant.ofEpochSecond(c.expiresAt));
    }
    if (c.notBefore != ParsedClaims.ABSENT && now + leewaySeconds < c.notBefore) {
      throw new TokenException(Reason.NOT_YET_VALID, "the token is not valid before "
          + java.time.Instant.ofEpochSecond(c.notBefore));
    }
    if (c.issuedAt > now + leewaySeconds) {
      throw new TokenException(Reason.ISSUED_IN_FUTURE, "the token's iat is in the future: check the clocks");
    }
  }

  private static TokenException missing(String claim) {
    return new TokenException(Reason.MISSING_CLAIM, "the token has no '" + claim + "' claim");
  }

  /** Cache key: hashes only the last segment (signature or tag, which no one can forge), compares the whole token. */
  private static final class CacheKey {
    private final String token;
    private final int hash;

    CacheKey(String token) {
      this.token = token;
      int n = token.length();
      int h = 0;
      for (int i = Math.max(0, n - 16); i < n; i++) {
        h = 31 * h + token.charAt(i);
      }
      this.hash = h;
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof CacheKey && ((CacheKey) o).token.equals(token);
    }
  }

  // --------------------------------------------------------------------------------- builder

  /**
   * Builds a {@link TokenCodec}, checking the whole configuration at {@link #build()}. Each
   * option may be set once. Not thread-safe.
   */
  public static final class Builder {
    private KeySource keys;
    private Algorithm algorithm;
    private Set<Algorithm> accepted;
    private String issuer;
    private String audience;
    private Duration timeToLive;
    private Duration clockSkew;
    private Clock clock;
    private Integer maxTokenLengthOption;
    private int maxTokenLength;
    private Integer cacheSizeOption;
    private int cacheSize;
    private Boolean compressOption;
    private boolean compress;
    private ObjectMapper mapper;

    private Builder() {}

    private static void once(Object current, String option) {
      if (current != null) {
        throw new IllegalStateException(option + " was already set");
      }
    }

    /** Where the keys come from: a fixed {@link KeySet} or a live source. Required. */
    public Builder keys(KeySource keys) {
      once(this.keys, "keys");
      this.keys = Objects.requireNonNull(keys, "keys");
      return this;
    }

    /** The algorithm to sign or encrypt with; {@code HS256} if not set. */
    public Builder algorithm(Algorithm algorithm) {
      once(this.algorithm, "algorithm");
      this.algorithm = Objects.requireNonNull(algorithm, "algorithm");
      return this;
    }

    /**
     * The algorithms accepted when decoding, e.g. during a migration from one to another; only
     * the codec's own algorithm if not set. Must include the codec's algorithm.
     */
    public Builder acceptAlgorithms(Algorithm first, Algorithm... more) {
      once(this.accepted, "acceptAlgorithms");
      this.accepted = EnumSet.of(first, more);
      return this;
    }

    /** The issuer ({@code iss}) written into tokens and required when decoding. Required. */
    public Builder issuer(String issuer) {
      once(this.issuer, "issuer");
      this.issuer = Objects.requireNonNull(issuer, "issuer");
      return this;
    }

    /** The audience ({@code aud}) written into tokens and required when decoding. Required. */
    public Builder audience(String audience) {
      once(this.audience, "audience");
      this.audience = Objects.requireNonNull(audience, "audience");
      return this;
    }

    /**
     * How long a new token lives ({@code exp} - {@code iat}): whole seconds, from one second to
     * {@link #MAX_TIME_TO_LIVE}, checked at {@link #build()}. Required.
     */
    public Builder timeToLive(Duration ttl) {
      once(this.timeToLive, "timeToLive");
      this.timeToLive = Objects.requireNonNull(ttl, "ttl");
      return this;
    }

    /** Leeway for clock differences between nodes, applied to {@code exp}, {@code nbf} and {@code iat}; 30 seconds if not set, at most 10 minutes. */
    public Builder clockSkew(Duration skew) {
      once(this.clockSkew, "clockSkew");
      this.clockSkew = Objects.requireNonNull(skew, "skew");
      return this;
    }

    /** The clock; {@link Clock#systemUTC()} if not set. Tests pass a fixed or offset clock. */
    public Builder clock(Clock clock) {
      once(this.clock, "clock");
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** The longest token accepted or made, in characters; 8192 if not set, 256 to 1 MiB. */
    public Builder maxTokenLength(int chars) {
      once(this.maxTokenLengthOption, "maxTokenLength");
      this.maxTokenLengthOption = chars;
      return this;
    }

    /** The most verified tokens the cache keeps; 10,000 if not set; 0 switches the cache off. */
    public Builder verificationCache(int maxEntries) {
      once(this.cacheSizeOption, "verificationCache");
      this.cacheSizeOption = maxEntries;
      return this;
    }

    /**
     * Whether to DEFLATE the payload before encrypting ({@code zip: DEF}); only for {@code
     * DIR_A256GCM}. Off if not set. Compressed tokens of either kind are accepted when decoding,
     * and their inflated size is capped at four times the maximum token length.
     */
    public Builder compress(boolean compress) {
      once(this.compressOption, "compress");
      this.compressOption = compress;
      return this;
    }

    /**
     * The Jackson mapper for state values; a plain {@code JsonMapper} if not set. Register the
     * modules your state types need (java.time, ...). Never enable default typing.
     */
    public Builder objectMapper(ObjectMapper mapper) {
      once(this.mapper, "objectMapper");
      this.mapper = Objects.requireNonNull(mapper, "mapper");
      return this;
    }

    /**
     * Checks the configuration and builds the codec.
     *
     * @throws IllegalStateException if a required option is missing or options contradict
     * @throws IllegalArgumentException if a value is out of range
     */
    public TokenCodec build() {
      if (keys == null) {
        throw new IllegalStateException("keys are required: pass a KeySet or a live KeySource");
      }
      if (issuer == null || issuer.isEmpty()) {
        throw new IllegalStateException("issuer is required (the iss claim), e.g. your service's URL");
      }
      if (audience == null || audience.isEmpty()) {
        throw new IllegalStateException("audience is required (the aud claim), e.g. your application's name");
      }
      if (timeToLive == null) {
        throw new IllegalStateException("timeToLive is required: say how long a token lives");
      }
      Claims.checkTimeToLive(timeToLive, "timeToLive");
      if (algorithm == null) {
        algorithm = Algorithm.HS256;
      }
      if (accepted == null) {
        accepted = EnumSet.of(algorithm);
      } else if (!accepted.contains(algorithm)) {
        throw new IllegalStateException(
            "acceptAlgorithms must include the codec's own algorithm " + algorithm);
      }
      if (clockSkew == null) {
        clockSkew = Duration.ofSeconds(30);
      } else if (clockSkew.isNegative() || clockSkew.compareTo(Duration.ofMinutes(10)) > 0) {
        throw new IllegalArgumentException("clockSkew must be between 0 and 10 minutes, got " + clockSkew);
      }
      if (clock == null) {
        clock = Clock.systemUTC();
      }
      maxTokenLength = maxTokenLengthOption == null ? 8192 : maxTokenLengthOption;
      if (maxTokenLength < 256 || maxTokenLength > (1 << 20)) {
        throw new IllegalArgumentException("maxTokenLength must be 256 to 1048576, got " + maxTokenLength);
      }
      cacheSize = cacheSizeOption == null ? 10_000 : cacheSizeOption;
      if (cacheSize < 0) {
        throw new IllegalArgumentException("verificationCache must not be negative, got " + cacheSize);
      }
      compress = compressOption != null && compressOption;
      if (compress && !algorithm.isEncrypting()) {
        throw new IllegalStateException(
            "compress applies to encrypted tokens only (DIR_A256GCM), not " + algorithm);
      }
      if (mapper == null) {
        mapper = JsonMapper.builder(Json.plainFactory()).build();
      }
      return new TokenCodec(this);
    }
  }
}
