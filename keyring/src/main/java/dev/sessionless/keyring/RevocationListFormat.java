package dev.sessionless.keyring;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.RevocationStore;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The published document of {@link PublishedRevocations}: a compact JWS of type {@value
 * PublishedRevocations#TOKEN_TYPE} whose claim {@code s} maps revoked session ids to the second
 * until which each stays revoked, and whose claim {@code u} maps subjects logged out everywhere
 * to {@code [notBefore, until]} (NumericDates). Writing it, checking its signature and reading
 * it into a store; fetching it is {@link RevocationListSource}'s, keeping it current is {@link
 * PublishedRevocations}'.
 */
final class RevocationListFormat {
  private RevocationListFormat() {}

  /** See {@link PublishedRevocations#sign}. */
  static String sign(TokenCodec codec, Map<String, Instant> sessions, Map<String, List<Instant>> subjects,
      Clock clock) {
    if (!codec.tokenType().equals(Optional.of(PublishedRevocations.TOKEN_TYPE))) {
      throw new IllegalArgumentException("sign a revocation list with a codec built with tokenType(\""
          + PublishedRevocations.TOKEN_TYPE + "\"), so that it is never read as another kind of token");
    }
    if (codec.algorithm().isEncrypting()) {
      throw new IllegalArgumentException("a revocation list is signed, and the codec's algorithm "
          + codec.algorithm().joseName() + "/" + codec.algorithm().encryption().orElse("") + " encrypts: build the"
          + " publisher's codec with algorithm(ES256) (or EDDSA, or HS256 for a secret all nodes share) and a key"
          + " of that algorithm, e.g. from 'keyring init --alg ES256'");
    }
    long now = clock.instant().getEpochSecond();
    Map<String, Long> s = new LinkedHashMap<>();
    sessions.forEach((id, until) -> {
      if (until.getEpochSecond() >= now) {
        s.put(id, until.getEpochSecond());
      }
    });
    Map<String, List<Long>> u = new LinkedHashMap<>();
    subjects.forEach((subject, pair) -> {
      if (pair.size() != 2) {
        throw new IllegalArgumentException("a subject's entry is [notBefore, until]");
      }
      if (pair.get(1).getEpochSecond() >= now) {
        u.put(subject, List.of(pair.get(0).getEpochSecond(), pair.get(1).getEpochSecond()));
      }
    });
    return codec.encode(Claims.builder().claim("s", s).claim("u", u).build());
  }

  /**
   * The strict decoder of lists: the type, issuer and audience the reader expects, any signing
   * algorithm of the key set (the decoder binds each token's {@code alg} to its key's).
   *
   * @throws KeyringException {@code CONFIGURATION} if the key set holds no key that can verify
   *     a signed list (none, or only {@code dir} keys, which encrypt): no list could ever be read
   */
  static TokenCodec reader(KeySource keys, String issuer, String audience, int maxBytes, Clock clock) {
    boolean verifies = keys.current().keys().stream().anyMatch(k -> !k.algorithm().isEncrypting());
    if (!verifies) {
      throw new KeyringException(KeyringException.Reason.CONFIGURATION, "the keys given to PublishedRevocations"
          + " (builder().keys(...); in Spring Boot sessionless.revocation.published.keys-file, else"
          + " sessionless.keys.*) hold no key that verifies a signed list (none, or only dir/A256GCM keys, which"
          + " encrypt): a revocation list is"
          + " signed, so pass the publisher's verification key (its ES256/EdDSA public key from 'keyring public',"
          + " or the HS256 key all nodes share)");
    }
    return TokenCodec.builder().keys(keys).issuer(issuer).audience(audience)
        .tokenType(PublishedRevocations.TOKEN_TYPE)
        .acceptAlgorithms(Algorithm.HS256, Algorithm.HS384, Algorithm.HS512, Algorithm.ES256, Algorithm.EDDSA)
        .timeToLive(Duration.ofMinutes(1)).maxTokenLength(maxBytes).verificationCache(0).clock(clock).build();
  }

  /** A verified list, read into a fresh in-memory store, and when it expires. */
  record Read(RevocationStore store, long expiresEpochSecond) {}

  /**
   * Verifies {@code text} and reads it into a fresh store.
   *
   * @throws KeyringException {@code MALFORMED} if the list is refused (not signed by a key of
   *     the set, wrong type, expired, altered) or is signed but not shaped as a list
   */
  static Read read(TokenCodec reader, String text, Clock clock) {
    SessionToken list;
    try {
      list = reader.decode(text);
    } catch (TokenException e) {
      throw new KeyringException(KeyringException.Reason.MALFORMED, "the revocation list was refused ("
          + e.reason() + "): it must be a " + PublishedRevocations.TOKEN_TYPE + " signed by a key of the key set", e);
    }
    RevocationStore next = RevocationStore.inMemory(clock);
    try {
      Map<?, ?> s = list.claim("s", Map.class).orElse(Map.of());
      for (Map.Entry<?, ?> e : s.entrySet()) {
        next.revokeSession((String) e.getKey(), Instant.ofEpochSecond(((Number) e.getValue()).longValue()));
      }
      Map<?, ?> u = list.claim("u", Map.class).orElse(Map.of());
      for (Map.Entry<?, ?> e : u.entrySet()) {
        List<?> pair = (List<?>) e.getValue();
        next.revokeSubject((String) e.getKey(), Instant.ofEpochSecond(((Number) pair.get(0)).longValue()),
            Instant.ofEpochSecond(((Number) pair.get(1)).longValue()));
      }
    } catch (RuntimeException e) {
      throw new KeyringException(KeyringException.Reason.MALFORMED,
          "the revocation list is signed but malformed (" + e.getClass().getSimpleName() + "): check the publisher", e);
    }
    return new Read(next, list.expiresAt().getEpochSecond());
  }
}
