package dev.sessionless.core;

import dev.sessionless.core.TokenException.Reason;
import dev.sessionless.core.internal.StateReaders;
import dev.sessionless.core.internal.AesGcmEngine;
import dev.sessionless.core.internal.Ascii;
import dev.sessionless.core.internal.Base64Url;
import dev.sessionless.core.internal.ClaimsReader;
import dev.sessionless.core.internal.Deflate;
import dev.sessionless.core.internal.ExpectedClaims;
import dev.sessionless.core.internal.HeaderIndex;
import dev.sessionless.core.internal.HeaderParser;
import dev.sessionless.core.internal.KeyEngine;
import dev.sessionless.core.internal.ParsedClaims;
import dev.sessionless.core.internal.Scratch;
import dev.sessionless.core.internal.Utf8;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * Verification for a {@link TokenCodec}: splits a compact token, recognises its header, checks
 * the signature or decrypts, reads the registered claims and checks them against the clock.
 * Every rejection is a {@link TokenException} with its reason. Works with pooled buffers, keeps
 * nothing.
 */
final class Verifier {
  private final KeySource keys;
  private final EnumSet<Algorithm> accepted;
  private final ExpectedClaims expected;
  private final long leewaySeconds;
  private final Clock clock;
  private final int maxTokenLength;
  private final StateReaders readers;
  private final String issuer;
  private final String audience;
  /** The codec's token type, or {@code null} for plain session tokens (no typ, or typ JWT). */
  private final String tokenType;
  /** Whether signed tokens with {@code zip} are read (an extension; off by default). */
  private final boolean signedZip;

  Verifier(KeySource keys, Set<Algorithm> accepted, String issuer, String audience, String tokenType,
      long leewaySeconds, Clock clock, int maxTokenLength, StateMapper mapper, boolean signedZip) {
    this.keys = keys;
    this.signedZip = signedZip;
    this.issuer = issuer;
    this.audience = audience;
    this.tokenType = tokenType;
    this.accepted = accepted.isEmpty() ? EnumSet.noneOf(Algorithm.class) : EnumSet.copyOf(accepted); // a bit test per token
    this.expected = ExpectedClaims.of(issuer, audience);
    this.leewaySeconds = leewaySeconds;
    this.clock = clock;
    this.maxTokenLength = maxTokenLength;
    this.readers = new StateReaders(mapper);
  }

  /** Whether exp, nbf or iat rule the token out at {@code now}; {@link #checkClaims} says which. */
  boolean timeClaimsFail(long exp, long nbf, long iat, long now) {
    return now - leewaySeconds >= exp
        || (nbf != ParsedClaims.ABSENT && now + leewaySeconds < nbf)
        || iat > now + leewaySeconds;
  }

  /** Verifies {@code token} (of length {@code n}, within the limit) under {@code set}. */
  SessionToken verify(String token, int n, KeySet set) {
    // String.indexOf, not a scan of the bytes below: the JDK's intrinsic beats eight bytes a step.
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
    int zip; // a Compression's ordinal
    HeaderIndex.Entry<TokenKey> known = set.headers().find(b, 0, d1);
    if (known != null) {
      // The key set's own headers carry no typ: a plain session token.
      if (tokenType != null) {
        throw wrongType();
      }
      key = known.key;
      zip = known.zip;
      if (zip != 0 && !signedZip && !key.algorithm().isEncrypting()) {
        throw signedZipRefused();
      }
    } else {
      HeaderParser.Header h = HeaderParser.parse(b, 0, d1);
      key = resolve(h, set);
      checkType(h.typ());
      zip = Compression.forZip(h.zip()).ordinal(); // resolve() refused a value that names no kind
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
      TokenKey key, int zip, long now, Scratch scratch) {
    boolean jwe = d3 >= 0;
    byte[] payload;
    int payloadLen;
    boolean ascii = false; // known to be all ASCII, so well-formed UTF-8 without a look
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
      int r = payload == null ? -1 : Base64Url.decodeNoting(b, d1 + 1, d2, payload, 0);
      if (r < 0 || (r & ~Base64Url.NON_ASCII) != payloadLen) {
        throw new TokenException(Reason.MALFORMED, "the payload is not canonical base64url");
      }
      ascii = (r & Base64Url.NON_ASCII) == 0;
    } else {
      int ctLen = jweCiphertextLength(b, n, d1, d2, d3, d4, scratch);
      payload = scratch.payload(ctLen);
      payloadLen = decrypt(b, n, d1, d3, d4, ctLen, key, scratch, payload);
      try {
        return readPayload(payload, payloadLen, false, key, set, zip, now, scratch);
      } finally {
        // The plaintext leaves the pooled buffers with this decode, read or refused: what was
        // encrypted is not to be found later in a scratch another request takes.
        Arrays.fill(payload, 0, payloadLen, (byte) 0);
        if (zip != 0) {
          Arrays.fill(scratch.inflated(), (byte) 0);
        }
      }
    }
    return readPayload(payload, payloadLen, ascii, key, set, zip, now, scratch);
  }

  /** Inflates if need be, checks UTF-8, reads the claims and checks them, and makes the token. */
  private SessionToken readPayload(byte[] payload, int payloadLen, boolean ascii, TokenKey key,
      KeySet set, int zip, long now, Scratch scratch) {
    if (zip != 0) {
      // Only now, with the signature or the authentication tag checked.
      int k = Deflate.inflate(payload, payloadLen, scratch, 4 * maxTokenLength,
          zip == Compression.DEFLATE_WITH_DICTIONARY.ordinal());
      if (k == -2) {
        throw new TokenException(Reason.TOO_LARGE,
            "the compressed payload inflates beyond " + 4 * maxTokenLength + " bytes");
      } else if (k < 0) {
        throw new TokenException(Reason.MALFORMED, "the compressed payload is not valid DEFLATE");
      }
      payload = scratch.inflated();
      payloadLen = k;
      ascii = false;
    }
    if (!ascii && !Utf8.isValid(payload, 0, payloadLen)) {
      throw new TokenException(Reason.MALFORMED, "the payload is not valid UTF-8");
    }
    ParsedClaims c = scratch.claims;
    ClaimsReader.read(payload, payloadLen, expected, c);
    checkClaims(c, now);
    byte[] state = c.stateStart() < 0 ? null : Arrays.copyOfRange(payload, c.stateStart(), c.stateEnd());
    return new SessionToken(key, set, issuer, audience, c.id(), c.subject(), c.issuedAt(), c.expiresAt(),
        c.notBefore(), state, c.stateLayout(), c.others(), readers);
  }

  /**
   * Binds the header's {@code typ} to the codec: a plain codec takes none or {@code JWT}, a typed
   * codec exactly its own type (compared ignoring the case of ASCII letters only, as RFC 7515
   * section 4.1.9 advises for media types: {@code String.equalsIgnoreCase} would let {@code ſ}
   * stand for {@code s}).
   */
  private void checkType(String typ) {
    boolean ok = tokenType == null
        ? typ == null || Ascii.equalsIgnoreCase(typ, "JWT")
        : typ != null && Ascii.equalsIgnoreCase(typ, tokenType);
    if (!ok) {
      throw wrongType();
    }
  }

  private TokenException wrongType() {
    return new TokenException(Reason.WRONG_TOKEN_TYPE, tokenType == null
        ? "the token's typ header marks another kind of token (an internal service token?), not a session token"
        : "this codec reads only tokens of typ '" + tokenType + "', and the token is of another kind"
            + " (a browser session token?)");
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
    if (h.alg() == null) {
      throw new TokenException(Reason.MALFORMED, "the header has no alg");
    }
    if (Ascii.equalsIgnoreCase(h.alg(), "none")) {
      throw new TokenException(Reason.ALGORITHM_MISMATCH, "unsigned tokens (alg none) are never accepted");
    }
    if (h.kid() == null) {
      throw new TokenException(Reason.UNKNOWN_KEY, "the header names no key (kid)");
    }
    TokenKey key = set.keyOrNull(h.kid());
    if (key == null) {
      TokenException unknown;
      try {
        keys.unknownKeyId(h.kid());
        unknown = new TokenException(Reason.UNKNOWN_KEY, "the key set holds no key with the token's kid");
      } catch (TokenException e) {
        if (!e.reason().isRejection()) {
          throw e; // the source knows the key but cannot vouch for it now: an outage, not a logout
        }
        unknown = new TokenException(Reason.UNKNOWN_KEY, "the key set holds no key with the token's kid", e);
      } catch (RuntimeException e) {
        // The token is rejected whatever the hook does; its failure travels as the cause.
        unknown = new TokenException(Reason.UNKNOWN_KEY, "the key set holds no key with the token's kid", e);
      }
      throw unknown;
    }
    Algorithm a = key.algorithm();
    if (!a.joseName().equals(h.alg()) || !Objects.equals(a.encryption().orElse(null), h.enc())) {
      throw new TokenException(Reason.ALGORITHM_MISMATCH,
          "the token's alg does not match the algorithm of key '" + key.kid() + "' (" + a.joseName() + ")");
    }
    if (h.zip() != null && !a.isEncrypting() && !signedZip) {
      throw signedZipRefused();
    }
    if (h.zip() != null && Compression.forZip(h.zip()) == null) {
      throw new TokenException(Reason.UNSUPPORTED_HEADER, "only zip DEF and SLD1 are supported");
    }
    return key;
  }

  private static TokenException signedZipRefused() {
    return new TokenException(Reason.UNSUPPORTED_HEADER, "a signed token must not carry zip"
        + " (unless the codec accepts compressed signed tokens: acceptCompressedSignedTokens)");
  }

  private void checkClaims(ParsedClaims c, long now) {
    if (!c.issuerPresent()) {
      throw missing("iss");
    }
    if (!c.issuerMatched()) {
      throw new TokenException(Reason.WRONG_ISSUER, "the token was issued by another issuer");
    }
    if (!c.audiencePresent()) {
      throw missing("aud");
    }
    if (!c.audienceMatched()) {
      throw new TokenException(Reason.WRONG_AUDIENCE, "the token was issued for another audience");
    }
    if (c.expiresAt() == ParsedClaims.ABSENT) {
      throw missing("exp");
    }
    if (c.issuedAt() == ParsedClaims.ABSENT) {
      throw missing("iat");
    }
    if (c.id() == null) {
      throw missing("jti");
    }
    if (now - leewaySeconds >= c.expiresAt()) {
      throw new TokenException(Reason.EXPIRED, "the token expired at " + java.time.Instant.ofEpochSecond(c.expiresAt()));
    }
    if (c.notBefore() != ParsedClaims.ABSENT && now + leewaySeconds < c.notBefore()) {
      throw new TokenException(Reason.NOT_YET_VALID, "the token is not valid before "
          + java.time.Instant.ofEpochSecond(c.notBefore()));
    }
    if (c.issuedAt() > now + leewaySeconds) {
      throw new TokenException(Reason.ISSUED_IN_FUTURE, "the token's iat is in the future: check the clocks");
    }
  }

  private static TokenException missing(String claim) {
    return new TokenException(Reason.MISSING_CLAIM, "the token has no '" + claim + "' claim");
  }
}
