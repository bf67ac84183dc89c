package dev.sessionless.core;

import tools.jackson.databind.JsonNode;
import dev.sessionless.core.internal.AesGcmEngine;
import dev.sessionless.core.internal.BouncyCastleCheck;
import dev.sessionless.core.internal.ConstantTime;
import dev.sessionless.core.internal.EcP256Engine;
import dev.sessionless.core.internal.Ed25519Engine;
import dev.sessionless.core.internal.HmacEngine;
import dev.sessionless.core.internal.JwkJson;
import dev.sessionless.core.internal.KeyEngine;
import dev.sessionless.core.internal.KeyIds;
import java.nio.charset.StandardCharsets;
import dev.sessionless.core.internal.Sha256;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * One key: a key ID ({@code kid}), the one {@link Algorithm} it is bound to, its material, and
 * its lifecycle in time.
 *
 * <p><b>Lifecycle.</b> A key may carry four instants: <em>published</em> (informational: when
 * it was made known), <em>activates</em> (from then it may sign), <em>retires</em> (from then it
 * no longer signs but still verifies) and <em>expires</em> (from then it no longer verifies).
 * Any of them may be absent: a key with none signs and verifies forever. Every node holding the
 * same key set picks the same signing key from the clock alone (see {@link
 * KeySet#signingKey(Algorithm, Instant)}).
 *
 * <p><b>Security.</b> Secret and private material never appears in {@link #toString()}, and
 * leaves the key only through the deliberately named {@link #toJwkWithSecrets()}. A secret
 * shorter than its algorithm needs is refused.
 *
 * <p>Immutable and thread-safe; {@code with...} methods return copies.
 *
 * <p>JWK (RFC 7517) members read and written: {@code kty}, {@code kid}, {@code alg}, {@code
 * use}, {@code k}, {@code crv}, {@code x}, {@code y}, {@code d}, and the lifecycle instants as
 * NumericDate seconds in {@code published}, {@code activates}, {@code retires}, {@code expires}.
 */
public final class TokenKey {
  private static final SecureRandom RANDOM = new SecureRandom();
  static final long NONE_BEFORE = Long.MIN_VALUE;
  static final long NONE_AFTER = Long.MAX_VALUE;

  private final String kid;
  private final Algorithm algorithm;
  private final KeyEngine engine;
  private final byte[] secret; // symmetric keys only
  private final long published;
  private final long activates;
  private final long retires;
  private final long expires;
  private final byte[] header;
  /** The headers with each {@code zip} (indexed by {@link Compression#ordinal()}). */
  private final byte[][] zipHeaders;

  TokenKey(
      String kid,
      Algorithm algorithm,
      KeyEngine engine,
      byte[] secret,
      long published,
      long activates,
      long retires,
      long expires) {
    this.kid = kid;
    this.algorithm = algorithm;
    this.engine = engine;
    this.secret = secret;
    this.published = published;
    this.activates = activates;
    this.retires = retires;
    this.expires = expires;
    this.header = encodeHeader(Compression.NONE, null);
    this.zipHeaders = new byte[][] {header,
        encodeHeader(Compression.DEFLATE, null), encodeHeader(Compression.DEFLATE_WITH_DICTIONARY, null)};
  }

  /**
   * A key over a shared secret: HMAC for {@code HS256}/{@code HS384}/{@code HS512}, AES for
   * {@code DIR_A256GCM}.
   *
   * @param kid the key ID: 1 to 128 printable ASCII characters, without {@code "} or {@code \}
   * @param algorithm a symmetric algorithm
   * @param secret the secret; copied. At least {@link Algorithm#minSecretBytes()} long (exactly
   *     32 bytes for AES)
   * @throws IllegalArgumentException if the kid is not acceptable, the algorithm needs a key
   *     pair, or the secret is too short
   */
  public static TokenKey secret(String kid, Algorithm algorithm, byte[] secret) {
    checkKid(kid);
    Objects.requireNonNull(algorithm, "algorithm");
    Objects.requireNonNull(secret, "secret");
    if (!algorithm.isSymmetric()) {
      throw new IllegalArgumentException(
          algorithm + " uses a key pair, not a shared secret: use generate() or fromJwk()");
    }
    if (secret.length < algorithm.minSecretBytes()) {
      throw new IllegalArgumentException(
          algorithm + " needs a secret of at least " + algorithm.minSecretBytes()
              + " bytes, got " + secret.length + ": use a longer random secret");
    }
    byte[] copy = secret.clone();
    return new TokenKey(kid, algorithm, engineFor(algorithm, copy), copy,
        NONE_BEFORE, NONE_BEFORE, NONE_AFTER, NONE_AFTER);
  }

  /**
   * A new random key: a secret of the algorithm's size, or a fresh key pair.
   *
   * @param kid the key ID (see {@link #secret(String, Algorithm, byte[])})
   * @param algorithm any algorithm
   * @throws IllegalStateException for ES256 and EdDSA when BouncyCastle ({@code bcprov-jdk18on},
   *     an optional dependency) is not on the class path
   */
  public static TokenKey generate(String kid, Algorithm algorithm) {
    checkKid(kid);
    switch (algorithm) {
      case ES256:
        BouncyCastleCheck.require("ES256");
        return new TokenKey(kid, algorithm, EcP256Engine.generate(RANDOM), null,
            NONE_BEFORE, NONE_BEFORE, NONE_AFTER, NONE_AFTER);
      case EDDSA:
        BouncyCastleCheck.require("EdDSA");
        return new TokenKey(kid, algorithm, Ed25519Engine.generate(RANDOM), null,
            NONE_BEFORE, NONE_BEFORE, NONE_AFTER, NONE_AFTER);
      default:
        byte[] s = new byte[algorithm.minSecretBytes()];
        RANDOM.nextBytes(s);
        return secret(kid, algorithm, s);
    }
  }

  private static KeyEngine engineFor(Algorithm algorithm, byte[] secret) {
    switch (algorithm) {
      case HS256:
        return new HmacEngine("HmacSHA256", secret);
      case HS384:
        return new HmacEngine("HmacSHA384", secret);
      case HS512:
        return new HmacEngine("HmacSHA512", secret);
      case DIR_A256GCM:
        if (secret.length != 32) {
          throw new IllegalArgumentException(
              "A256GCM needs a secret of exactly 32 bytes, got " + secret.length);
        }
        return new AesGcmEngine(secret);
      default:
        throw new IllegalArgumentException(algorithm + " does not use a shared secret");
    }
  }

  /** The key ID. */
  public String kid() {
    return kid;
  }

  /** The one algorithm this key signs, verifies, encrypts or decrypts with. */
  public Algorithm algorithm() {
    return algorithm;
  }

  /** Whether this key holds what signing (or encrypting) needs: a secret or a private key. */
  public boolean canSign() {
    return engine.canSign();
  }

  /** When the key was published, if recorded. */
  public Optional<Instant> published() {
    return instant(published);
  }

  /** When the key starts signing; empty means it always could. */
  public Optional<Instant> activates() {
    return instant(activates);
  }

  /** When the key stops signing; empty means never. */
  public Optional<Instant> retires() {
    return instant(retires);
  }

  /** When the key stops verifying; empty means never. */
  public Optional<Instant> expires() {
    return instant(expires);
  }

  /** Whether this key may sign at {@code now}: it can sign, has activated, and is neither retired nor expired. */
  public boolean signsAt(Instant now) {
    return signsAt(now.getEpochSecond());
  }

  /** Whether tokens under this key verify at {@code now}: it has not expired. */
  public boolean verifiesAt(Instant now) {
    return verifiesAt(now.getEpochSecond());
  }

  boolean signsAt(long epochSecond) {
    return engine.canSign() && activates <= epochSecond && epochSecond < retires
        && epochSecond < expires;
  }

  boolean verifiesAt(long epochSecond) {
    return epochSecond < expires;
  }

  long activatesSecond() {
    return activates;
  }

  long publishedSecond() {
    return published;
  }

  long retiresSecond() {
    return retires;
  }

  long expiresSecond() {
    return expires;
  }

  /** The shared secret (not a copy), or {@code null} for a key pair. */
  byte[] secretOrNull() {
    return secret;
  }

  /**
   * A copy with the given lifecycle; {@code null} for an instant leaves it absent.
   *
   * @throws IllegalArgumentException unless published ≤ activates ≤ retires ≤ expires (for
   *     those present)
   */
  public TokenKey withLifecycle(Instant published, Instant activates, Instant retires, Instant expires) {
    long p = published == null ? NONE_BEFORE : published.getEpochSecond();
    long a = activates == null ? NONE_BEFORE : activates.getEpochSecond();
    long r = retires == null ? NONE_AFTER : retires.getEpochSecond();
    long e = expires == null ? NONE_AFTER : expires.getEpochSecond();
    checkOrder(p, a, r, e);
    return new TokenKey(kid, algorithm, engine, secret, p, a, r, e);
  }

  void checkOrder(long p, long a, long r, long e) {
    // Absent instants are the sentinels MIN (before everything) and MAX (after everything).
    if ((p != NONE_BEFORE && a != NONE_BEFORE && a < p) || a > r || r > e) {
      throw new IllegalArgumentException(
          "key '" + kid + "': the lifecycle must run published <= activates <= retires <= expires");
    }
  }

  /**
   * This key without its private part, for verify-only use or publication.
   *
   * @throws IllegalStateException for a symmetric key, whose secret is all there is
   */
  public TokenKey publicOnly() {
    KeyEngine pub;
    if (engine instanceof EcP256Engine) {
      pub = ((EcP256Engine) engine).publicOnly();
    } else if (engine instanceof Ed25519Engine) {
      pub = ((Ed25519Engine) engine).publicOnly();
    } else {
      throw new IllegalStateException("key '" + kid + "' is symmetric and has no public part");
    }
    return pub == engine ? this
        : new TokenKey(kid, algorithm, pub, null, published, activates, retires, expires);
  }

  KeyEngine engine() {
    return engine;
  }

  /** The encoded header for tokens compressed as {@code zip}. */
  byte[] header(Compression zip) {
    return zip == Compression.NONE ? header : zipHeaders[zip.ordinal()];
  }

  /**
   * The encoded header with a {@code typ} member (for a codec with a token type); made on each
   * call, so callers keep it (see {@link CompactWriter}).
   */
  byte[] header(Compression zip, String typ) {
    return typ == null ? header(zip) : encodeHeader(zip, typ);
  }

  // ---- JWK --------------------------------------------------------------------------------

  /**
   * Reads a key from a JWK (RFC 7517) JSON object. {@code kid} and, for {@code oct} keys,
   * {@code alg} are required; EC P-256 keys default to {@code ES256} and OKP Ed25519 keys to
   * {@code EdDSA}.
   *
   * @throws IllegalArgumentException if the JSON is not a JWK this library supports, or the
   *     key is invalid (point not on the curve, private part not matching, secret too short)
   * @throws IllegalStateException for an EC or OKP key when BouncyCastle ({@code bcprov-jdk18on},
   *     an optional dependency) is not on the class path
   */
  public static TokenKey fromJwk(String json) {
    Objects.requireNonNull(json, "json");
    JsonNode node = JwkJson.readTree(json, "JWK");
    return Jwk.readKey(node);
  }

  /**
   * This key's public JWK: the public part of an ES256 or EdDSA key, with its lifecycle.
   *
   * @throws IllegalStateException for a symmetric key, which has nothing public
   */
  public String toPublicJwk() {
    if (algorithm.isSymmetric()) {
      throw new IllegalStateException("key '" + kid + "' is symmetric and has no public JWK");
    }
    return JwkJson.write(Jwk.toNode(this, false));
  }

  /**
   * This key as a JWK <em>including its secret or private part</em>. Write the result only
   * where secrets belong (an owner-only or encrypted file, a secret store).
   */
  public String toJwkWithSecrets() {
    return JwkJson.write(Jwk.toNode(this, true));
  }

  /**
   * Whether {@code other} holds the same kid, algorithm, lifecycle and key material (secrets
   * compared in constant time).
   */
  public boolean sameAs(TokenKey other) {
    return other != null && kid.equals(other.kid) && algorithm == other.algorithm
        && published == other.published && activates == other.activates
        && retires == other.retires && expires == other.expires
        && engine.canSign() == other.engine.canSign()
        && (secret == null ? Jwk.toNode(this, false).equals(Jwk.toNode(other, false))
            : other.secret != null && ConstantTime.equals(secret, other.secret));
  }

  /**
   * Feeds everything {@link #sameAs} compares into {@code md}, each part length-prefixed so no
   * two different keys feed the same bytes. Used only for {@link KeySet#sameContentAs}.
   */
  void digestContent(MessageDigest md) {
    Sha256.updateField(md, kid.getBytes(StandardCharsets.UTF_8));
    Sha256.updateField(md, algorithm.name().getBytes(StandardCharsets.US_ASCII));
    Sha256.updateLong(md, published);
    Sha256.updateLong(md, activates);
    Sha256.updateLong(md, retires);
    Sha256.updateLong(md, expires);
    byte[][] parts;
    if (engine instanceof EcP256Engine) {
      EcP256Engine e = (EcP256Engine) engine;
      parts = new byte[][] {e.x(), e.y(), e.canSign() ? e.d() : new byte[0]};
    } else if (engine instanceof Ed25519Engine) {
      Ed25519Engine e = (Ed25519Engine) engine;
      parts = new byte[][] {e.x(), e.canSign() ? e.d() : new byte[0]};
    } else {
      parts = new byte[][] {secret.clone()};
    }
    md.update((byte) (engine.canSign() ? 1 : 0));
    for (byte[] part : parts) {
      Sha256.updateField(md, part);
      Arrays.fill(part, (byte) 0);
    }
  }

  /** The kid, algorithm and lifecycle; never key material. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("TokenKey[kid=").append(kid)
        .append(", alg=").append(algorithm.joseName())
        .append(algorithm.isSymmetric() ? ", secret" : (canSign() ? ", private" : ", public"));
    instant(activates).ifPresent(i -> sb.append(", activates=").append(i));
    instant(retires).ifPresent(i -> sb.append(", retires=").append(i));
    instant(expires).ifPresent(i -> sb.append(", expires=").append(i));
    return sb.append(']').toString();
  }

  // ---- helpers ------------------------------------------------------------------------------

  private byte[] encodeHeader(Compression zip, String typ) {
    return JoseHeader.encode(algorithm, kid, zip, typ);
  }

  /** The kid rule, in one place for the whole library ({@link KeyIds}). */
  static void checkKid(String kid) {
    KeyIds.check(kid);
  }

  private static Optional<Instant> instant(long s) {
    return s == NONE_BEFORE || s == NONE_AFTER ? Optional.empty() : Optional.of(Instant.ofEpochSecond(s));
  }
}
