package dev.sessionless.core;

import dev.sessionless.core.internal.HeaderIndex;
import dev.sessionless.core.internal.Sha256;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * An immutable snapshot of keys by key ID: which key signs now, which key verifies a given
 * {@code kid}. A rotation produces a new snapshot; readers holding the old one are unaffected.
 *
 * <p>A {@code KeySet} is also the simplest {@link KeySource}: one that never changes.
 *
 * <p><b>Choosing the signing key.</b> Among keys of the wanted algorithm that can sign and are
 * active at the instant asked about (activated, not retired, not expired), the one that
 * activated last signs; a tie goes to the greatest kid. The choice depends on the key set and
 * the clock only, so every node agrees without talking to the others.
 *
 * <p>JWKS (RFC 7517 section 5) import and export; see {@link TokenKey} for the members.
 * Thread-safe.
 */
public final class KeySet implements KeySource {
  private final Map<String, TokenKey> byKid;
  private final List<TokenKey> keys;
  private final HeaderIndex<TokenKey> headers;
  private volatile byte[] fingerprint;

  private KeySet(List<TokenKey> keys) {
    Map<String, TokenKey> m = new HashMap<>();
    List<HeaderIndex.Entry<TokenKey>> entries = new ArrayList<>();
    for (TokenKey k : keys) {
      Objects.requireNonNull(k, "key");
      if (m.putIfAbsent(k.kid(), k) != null) {
        throw new IllegalArgumentException("the kid '" + k.kid() + "' appears twice; key IDs must be unique");
      }
      entries.add(new HeaderIndex.Entry<>(k.header(Compression.NONE), k, Compression.NONE.ordinal()));
      for (Compression zip : new Compression[] {Compression.DEFLATE, Compression.DEFLATE_WITH_DICTIONARY}) {
        // A signed token with zip is found here too; the verifier refuses it unless its codec reads them.
        entries.add(new HeaderIndex.Entry<>(k.header(zip), k, zip.ordinal()));
      }
    }
    this.byKid = m;
    this.keys = Collections.unmodifiableList(new ArrayList<>(keys));
    this.headers = new HeaderIndex<>(entries);
  }

  /**
   * A key set of the given keys.
   *
   * @throws IllegalArgumentException if two keys share a kid
   */
  public static KeySet of(TokenKey... keys) {
    return new KeySet(List.of(keys));
  }

  /**
   * A key set of the given keys, in order.
   *
   * @throws IllegalArgumentException if two keys share a kid
   */
  public static KeySet of(Collection<TokenKey> keys) {
    return new KeySet(List.copyOf(keys));
  }

  /** An empty key set: verifies nothing, signs nothing. */
  public static KeySet empty() {
    return new KeySet(List.of());
  }

  /** Returns this snapshot. */
  @Override
  public KeySet current() {
    return this;
  }

  /** All keys, in the order given. */
  public List<TokenKey> keys() {
    return keys;
  }

  /** The key with this kid, whatever its lifecycle. */
  public Optional<TokenKey> key(String kid) {
    return Optional.ofNullable(byKid.get(kid));
  }

  TokenKey keyOrNull(String kid) {
    return byKid.get(kid);
  }

  HeaderIndex<TokenKey> headers() {
    return headers;
  }

  /** The key that signs (or encrypts) with {@code algorithm} at {@code now}, if any. */
  public Optional<TokenKey> signingKey(Algorithm algorithm, Instant now) {
    return Optional.ofNullable(signingKeyOrNull(algorithm, now.getEpochSecond()));
  }

  TokenKey signingKeyOrNull(Algorithm algorithm, long now) {
    TokenKey best = null;
    for (int i = 0, n = keys.size(); i < n; i++) { // indexed: no iterator on every encode
      TokenKey k = keys.get(i);
      if (k.algorithm() == algorithm && k.signsAt(now)
          && (best == null || k.activatesSecond() > best.activatesSecond()
              || (k.activatesSecond() == best.activatesSecond() && k.kid().compareTo(best.kid()) > 0))) {
        best = k;
      }
    }
    return best;
  }

  /** The key that verifies tokens naming {@code kid} at {@code now}: present and not expired. */
  public Optional<TokenKey> verificationKey(String kid, Instant now) {
    TokenKey k = byKid.get(kid);
    return k != null && k.verifiesAt(now) ? Optional.of(k) : Optional.empty();
  }

  /**
   * Whether {@code other} holds the same keys as this set: the same kids, each with the same
   * algorithm, lifecycle and material (see {@link TokenKey#sameAs(TokenKey)}), in any order. A
   * digest of the content is computed once per snapshot, so asking again is cheap.
   */
  public boolean sameContentAs(KeySet other) {
    return other == this || (other != null && MessageDigest.isEqual(fingerprint(), other.fingerprint()));
  }

  private byte[] fingerprint() {
    byte[] f = fingerprint;
    if (f == null) {
      List<TokenKey> sorted = new ArrayList<>(keys);
      sorted.sort(Comparator.comparing(TokenKey::kid));
      MessageDigest md = Sha256.newDigest();
      for (TokenKey k : sorted) {
        k.digestContent(md);
      }
      f = md.digest();
      fingerprint = f;
    }
    return f;
  }

  /** A copy with {@code key} added, or replacing the key with the same kid. */
  public KeySet with(TokenKey key) {
    Map<String, TokenKey> m = new LinkedHashMap<>();
    keys.forEach(k -> m.put(k.kid(), k));
    m.put(key.kid(), key);
    return new KeySet(new ArrayList<>(m.values()));
  }

  /** A copy without the key of this kid (the same set if there is none). */
  public KeySet without(String kid) {
    if (!byKid.containsKey(kid)) {
      return this;
    }
    List<TokenKey> rest = new ArrayList<>(keys);
    rest.removeIf(k -> k.kid().equals(kid));
    return new KeySet(rest);
  }

  /**
   * Reads a JWKS document, {@code {"keys": [...]}}.
   *
   * @throws IllegalArgumentException if it is not valid JSON, a key is invalid or unsupported,
   *     or two keys share a kid
   * @throws IllegalStateException if it holds an ES256 or EdDSA key and BouncyCastle ({@code
   *     bcprov-jdk18on}, an optional dependency) is not on the class path
   */
  public static KeySet fromJwks(String json) {
    return new KeySet(Jwk.readSet(json, null));
  }

  /**
   * Reads a JWKS that someone else publishes, skipping the keys this library cannot use, as RFC
   * 7517 section 5 asks: an unknown {@code kty}, {@code alg} or curve, a key its publisher reserved
   * for another use ({@code use}, {@code key_ops}), a missing or malformed member. Each skipped key
   * is told to {@code skipped}: its kid (or {@code #} and its position in the set when it has no
   * usable kid) and why, in printable ASCII. The other keys are kept; an empty result is the
   * caller's to judge. Strict reading ({@link #fromJwks(String)}) suits files the operator writes.
   *
   * @throws IllegalArgumentException if it is not valid JSON or not a JWKS, or two usable keys
   *     share a kid
   * @throws IllegalStateException if a usable key is ES256 or EdDSA and BouncyCastle is not on
   *     the class path
   */
  public static KeySet fromJwksSkippingUnusable(String json, BiConsumer<String, String> skipped) {
    Objects.requireNonNull(skipped, "skipped");
    return new KeySet(Jwk.readSet(json, skipped));
  }

  /** The public JWKS: the public part of every ES256 and EdDSA key; symmetric keys are left out. */
  public String toPublicJwks() {
    return Jwk.writeSet(keys, false);
  }

  /**
   * The whole JWKS <em>including secrets and private keys</em>. Write it only where secrets
   * belong.
   */
  public String toJwksWithSecrets() {
    return Jwk.writeSet(keys, true);
  }

  /** The keys' kids, algorithms and lifecycles; never key material. */
  @Override
  public String toString() {
    return "KeySet" + keys;
  }
}
