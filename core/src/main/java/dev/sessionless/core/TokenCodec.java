// Over 400 lines on purpose: this is the public face of the codec, and 191 of its lines are the
// Javadoc of its methods and of the Builder's options (TokenCodec.Builder is public API). The
// write path is TokenEncoder, the read path TokenDecoder; what is left is the configuration.
package dev.sessionless.core;

import dev.sessionless.core.internal.BuilderChecks;
import dev.sessionless.core.internal.Ascii;
import dev.sessionless.core.internal.SafeListener;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
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
 * their whole text) so the same token is not verified again: a bounded cache (a token enters it
 * when it is presented a second time; until then it waits in a small table of recent tokens, so
 * tokens that are only ever presented once, as in a session that changes on every request, cost
 * no cache write and push nothing out), whose hits are re-checked against the clock ({@code
 * exp}, {@code nbf}, {@code iat}) and the key's expiry, and which empties when the keys change (an equal key set returned as a new object keeps it;
 * see {@link KeySource}). A token with other bytes, such as the second valid spelling (r, n - s)
 * of an ES256 signature, is its own entry and is verified on its own: the cache never treats a
 * signature as identity, and neither does anything else ({@code jti} is the session's identity).
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

  private final Algorithm algorithm;
  private final String tokenType;
  private final TokenEncoder encoder;
  private final TokenDecoder decoder;

  private TokenCodec(Builder b) {
    this.algorithm = b.algorithm;
    this.tokenType = b.tokenType;
    SessionlessListener listener = SafeListener.wrap(b.listener == null ? SessionlessListener.NONE : b.listener);
    CompactWriter writer = new CompactWriter(b.issuer, b.audience, b.tokenType, b.maxTokenLength, b.compress, b.mapper);
    this.encoder = new TokenEncoder(b.keys, b.algorithm, b.timeToLive.getSeconds(), b.clock, writer, listener);
    Verifier verifier = new Verifier(b.keys, b.accepted, b.issuer, b.audience, b.tokenType,
        b.clockSkew.getSeconds(), b.clock, b.maxTokenLength, b.mapper, b.signedZip);
    VerificationCache cache = b.cacheSize == 0 ? null : new VerificationCache(b.cacheSize, verifier, b.clock);
    this.decoder = new TokenDecoder(b.keys, b.clock, b.maxTokenLength, verifier, cache, b.revocation, listener);
  }

  /** A builder; {@code keys}, {@code issuer}, {@code audience} and {@code timeToLive} are required. */
  public static Builder builder() {
    return new Builder();
  }

  /** The token type ({@code typ} header) this codec writes and requires, if it has one. */
  public java.util.Optional<String> tokenType() {
    return java.util.Optional.ofNullable(tokenType);
  }

  /** The algorithm this codec signs or encrypts with. */
  public Algorithm algorithm() {
    return algorithm;
  }

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
    return encode(claims, "", "");
  }

  /**
   * Makes a token of {@code claims} as {@link #encode(Claims)} does, issued at {@code issuedAt}
   * (its whole second) instead of the clock's reading: for a caller that read the time once to
   * decide on the token (a lifetime capped to a parent's expiry, say) and must have {@code iat},
   * {@code exp} and the choice of signing key come from that same reading. The clock is not read.
   *
   * @throws TokenException as {@link #encode(Claims)}
   * @throws IllegalArgumentException as {@link #encode(Claims)}, and if {@code issuedAt} lies
   *     before 1970 or after 9999
   */
  public String encode(Claims claims, java.time.Instant issuedAt) {
    return encoder.encode(claims, issuedAt, "", "");
  }

  /**
   * Makes a token of {@code claims} as {@link #encode(Claims)} does, and returns it as
   * {@code prefix + token + suffix} in one String: a header value that holds the token (a
   * {@code Set-Cookie}'s {@code name=} and attributes, an {@code Authorization}'s
   * {@code Bearer }) without a String of the token alone on the way, which for a token of
   * several hundred characters is most of what building the header allocates. The listener
   * is told the token's own length.
   *
   * @throws TokenException as {@link #encode(Claims)}
   * @throws IllegalArgumentException as {@link #encode(Claims)}
   */
  public String encode(Claims claims, String prefix, String suffix) {
    return encoder.encode(claims, prefix, suffix);
  }

  /**
   * Verifies (or decrypts) a token and checks its claims.
   *
   * @return the verified token
   * @throws TokenException for every rejection, whatever the input; never another exception
   *     (with a {@linkplain Builder#revocation revocation source}, also {@code SESSION_REVOKED},
   *     {@code SUBJECT_REVOKED} and, from a source that fails closed, {@code
   *     REVOCATION_UNAVAILABLE})
   */
  public SessionToken decode(String token) {
    return decode(token, 0, token == null ? 0 : token.length());
  }

  /**
   * Verifies (or decrypts) the token that is {@code text.substring(start, end)}, and checks its
   * claims: as {@link #decode(String)}, for a token that lies inside a longer text, such as a
   * {@code Cookie} or {@code Authorization} header. A verification-cache hit copies nothing; only
   * a token that must be verified is copied out, and the cache never keeps {@code text} itself.
   *
   * @return the verified token
   * @throws TokenException for every rejection, as {@link #decode(String)}
   * @throws IndexOutOfBoundsException if {@code start} and {@code end} are not a region of
   *     {@code text} (the caller's bug, not the token's)
   */
  public SessionToken decode(String text, int start, int end) {
    return decoder.decode(text, start, end);
  }

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
    private Compression compressOption;
    private Compression compress;
    private Boolean signedZipOption;
    private boolean signedZip;
    private StateMapper mapper;
    private String tokenType;
    private RevocationSource revocation;
    private SessionlessListener listener;

    private Builder() {}

    /** Where the keys come from: a fixed {@link KeySet} or a live source. Required. */
    public Builder keys(KeySource keys) {
      BuilderChecks.once(this.keys, "keys");
      this.keys = Objects.requireNonNull(keys, "keys");
      return this;
    }

    /** The algorithm to sign or encrypt with; {@code HS256} if not set. */
    public Builder algorithm(Algorithm algorithm) {
      BuilderChecks.once(this.algorithm, "algorithm");
      this.algorithm = Objects.requireNonNull(algorithm, "algorithm");
      return this;
    }

    /**
     * The algorithms accepted when decoding, e.g. during a migration from one to another; only
     * the codec's own algorithm if not set. Must include the codec's algorithm.
     */
    public Builder acceptAlgorithms(Algorithm first, Algorithm... more) {
      BuilderChecks.once(this.accepted, "acceptAlgorithms");
      this.accepted = EnumSet.of(first, more);
      return this;
    }

    /** The issuer ({@code iss}) written into tokens and required when decoding. Required. */
    public Builder issuer(String issuer) {
      BuilderChecks.once(this.issuer, "issuer");
      this.issuer = Objects.requireNonNull(issuer, "issuer");
      return this;
    }

    /**
     * A token type of the codec's own, written as the {@code typ} header of every token it makes
     * and required of every token it reads (RFC 8725 section 3.11, explicit typing): tokens of
     * one kind are then never accepted as another, say an internal service token as a browser
     * session token. Without it (the default, for session tokens) the codec writes no {@code
     * typ} and accepts none or {@code JWT}, and refuses any other with {@code WRONG_TOKEN_TYPE}.
     *
     * @param typ 1 to 64 printable ASCII characters, a media type without its {@code
     *     application/} prefix such as {@code sl-internal+jwt}; not {@code JWT}
     * @throws IllegalArgumentException if the type is not acceptable
     */
    public Builder tokenType(String typ) {
      BuilderChecks.once(this.tokenType, "tokenType");
      Objects.requireNonNull(typ, "typ");
      if (typ.isEmpty() || typ.length() > 64 || !typ.chars().allMatch(c -> c > 0x20 && c < 0x7f && c != '"' && c != '\\')) {
        throw new IllegalArgumentException("a token type must be 1 to 64 printable ASCII characters without quotes"
            + " or backslashes, e.g. sl-internal+jwt");
      }
      if (Ascii.equalsIgnoreCase(typ, "JWT")) {
        throw new IllegalArgumentException("JWT is what every token may say: choose a type of your own, such as"
            + " sl-internal+jwt, or leave tokenType unset for session tokens");
      }
      this.tokenType = typ;
      return this;
    }

    /** The audience ({@code aud}) written into tokens and required when decoding. Required. */
    public Builder audience(String audience) {
      BuilderChecks.once(this.audience, "audience");
      this.audience = Objects.requireNonNull(audience, "audience");
      return this;
    }

    /**
     * How long a new token lives ({@code exp} - {@code iat}): whole seconds, from one second to
     * {@link #MAX_TIME_TO_LIVE}, checked at {@link #build()}. Required.
     */
    public Builder timeToLive(Duration ttl) {
      BuilderChecks.once(this.timeToLive, "timeToLive");
      this.timeToLive = Objects.requireNonNull(ttl, "ttl");
      return this;
    }

    /** Leeway for clock differences between nodes, applied to {@code exp}, {@code nbf} and {@code iat}; 30 seconds if not set, at most 10 minutes. */
    public Builder clockSkew(Duration skew) {
      BuilderChecks.once(this.clockSkew, "clockSkew");
      this.clockSkew = Objects.requireNonNull(skew, "skew");
      return this;
    }

    /** The clock; {@link Clock#systemUTC()} if not set. Tests pass a fixed or offset clock. */
    public Builder clock(Clock clock) {
      BuilderChecks.once(this.clock, "clock");
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** The longest token accepted or made, in characters; 8192 if not set, 256 to 1 MiB. */
    public Builder maxTokenLength(int chars) {
      BuilderChecks.once(this.maxTokenLengthOption, "maxTokenLength");
      this.maxTokenLengthOption = chars;
      return this;
    }

    /**
     * The most verified tokens the cache keeps (tokens presented more than once; besides them, a
     * table of up to 1,024 recent tokens); 10,000 if not set; 0 switches the cache off.
     */
    public Builder verificationCache(int maxEntries) {
      BuilderChecks.once(this.cacheSizeOption, "verificationCache");
      this.cacheSizeOption = maxEntries;
      return this;
    }

    /**
     * Whether to DEFLATE the payload ({@code zip: DEF}); {@link #compression(Compression)} says
     * more, and what it means for a signed token. Off if not set. Compressed encrypted tokens
     * are accepted when decoding, and their inflated size is capped at four times the maximum
     * token length.
     *
     * <p>A payload of up to 512 bytes is written as one DEFLATE block of fixed Huffman codes,
     * which any reader inflates without first building code tables: ~5–12% more bytes than
     * zlib's smallest block at these sizes, for a decode ~1.2 µs (a third) faster and an encode
     * about twice as fast. Larger payloads are compressed by zlib. Both are standard DEFLATE, read
     * by every JOSE library.
     */
    public Builder compress(boolean compress) {
      return compression(compress ? Compression.DEFLATE : Compression.NONE);
    }

    /**
     * How to compress the payload: {@link Compression#NONE} if not set; {@code
     * compression(DEFLATE)} is {@code compress(true)}. Set one of the two, once.
     *
     * <p>An encrypted token ({@code DIR_A256GCM}) is compressed before it is encrypted, as RFC
     * 7516's {@code zip} means. Every kind is read when decoding, whatever this says, with the
     * inflated size capped at four times the maximum token length: change what a fleet writes
     * only once every node reads it (for {@link Compression#DEFLATE_WITH_DICTIONARY}, a version
     * that knows {@code SLD1}).
     *
     * <p>A signed token is compressed before it is signed, and its header carries {@code zip}
     * too. That is an extension: RFC 7515 defines no {@code zip} for a JWS, so jose4j and Nimbus
     * do not read such a token (their parsers find no JSON in the payload), and neither does a
     * Sessionless codec unless it {@linkplain #acceptCompressedSignedTokens(boolean) accepts
     * them}, which this setting implies. The signature is checked before anything is inflated.
     * It buys a shorter cookie: the benchmark cart's HS256 token is ~480 characters with {@code
     * SLD1} against ~730 without. The state stays readable to anyone who holds the token, as in
     * every signed token.
     */
    public Builder compression(Compression compression) {
      Objects.requireNonNull(compression, "compression");
      BuilderChecks.once(this.compressOption, "compress/compression");
      this.compressOption = compression;
      return this;
    }

    /**
     * Whether to read signed tokens whose header carries {@code zip} ({@code DEF} or {@code
     * SLD1}): off if not set, as in other JOSE libraries, which refuse such a token as
     * {@link TokenException.Reason#UNSUPPORTED_HEADER}; on when this codec writes compressed
     * signed tokens ({@link #compression(Compression)} with a signing algorithm), and then it
     * may not be turned off. A fleet moving to compressed signed tokens sets this on every node
     * first, then the compression. The signature is verified before the payload is inflated, and
     * the inflated size is capped at four times the maximum token length.
     */
    public Builder acceptCompressedSignedTokens(boolean accept) {
      BuilderChecks.once(this.signedZipOption, "acceptCompressedSignedTokens");
      this.signedZipOption = accept;
      return this;
    }

    /**
     * How state values become JSON and back; {@link StateMapper#defaults()} (Jackson 3) if not
     * set. Pass {@code JacksonStateMapper.of(yourJsonMapper)} to use your own Jackson 3
     * configuration (modules, naming, dates), or {@code Jackson2StateMapper.of(yourObjectMapper)}
     * if you are still on Jackson 2.
     */
    public Builder stateMapper(StateMapper mapper) {
      BuilderChecks.once(this.mapper, "stateMapper");
      this.mapper = Objects.requireNonNull(mapper, "mapper");
      return this;
    }

    /**
     * Checks every decoded token against this source (revoked sessions, subjects logged out
     * everywhere), after its signature and claims, also on a verification-cache hit; none if
     * not set. The look-up is in memory; see {@link RevocationSource}.
     */
    public Builder revocation(RevocationSource source) {
      BuilderChecks.once(this.revocation, "revocation");
      this.revocation = Objects.requireNonNull(source, "source");
      return this;
    }

    /**
     * Told of every token verified (with or without the cache), rejected and made; {@link
     * SessionlessListener#NONE} if not set. Its exceptions are caught and logged once, never
     * passed to the caller of {@code encode} or {@code decode}.
     */
    public Builder listener(SessionlessListener listener) {
      BuilderChecks.once(this.listener, "listener");
      this.listener = Objects.requireNonNull(listener, "listener");
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
      compress = compressOption == null ? Compression.NONE : compressOption;
      boolean writesSignedZip = compress != Compression.NONE && !algorithm.isEncrypting();
      if (writesSignedZip && Boolean.FALSE.equals(signedZipOption)) {
        throw new IllegalStateException("a codec that writes compressed " + algorithm
            + " tokens must read them: drop acceptCompressedSignedTokens(false), or compression");
      }
      signedZip = writesSignedZip || Boolean.TRUE.equals(signedZipOption);
      if (mapper == null) {
        mapper = StateMapper.defaults();
      }
      return new TokenCodec(this);
    }
  }
}
