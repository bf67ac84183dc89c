// Over 400 lines on purpose: a public type whose every accessor carries its Javadoc (about 100
// lines); the state machinery is already apart (internal StateIndex, StateReaders, StateValues).
package dev.sessionless.core;

import dev.sessionless.core.internal.RawJson;
import dev.sessionless.core.internal.StateAccess;
import dev.sessionless.core.internal.StateIndex;
import dev.sessionless.core.internal.StateReaders;
import dev.sessionless.core.internal.StateValues;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A verified token: its signature or encryption checked, its registered claims checked against
 * the codec's issuer, audience and clock. Only {@link TokenCodec#decode(String)} makes one; to
 * write a new token, start from {@link #toClaims()} or {@link Claims#builder()}.
 *
 * <p>The application state is kept as the JSON bytes it arrived as and read only when asked
 * for, through the codec's {@link StateMapper}. Where each value sits is found once and
 * kept with the token (and so with the verification cache's entry for it). Immutable JDK
 * values ({@code String}, {@code Boolean}, {@code Integer}, {@code Long} and the other boxed
 * numbers, {@code BigInteger}, {@code BigDecimal}) are read once per name and type and then
 * handed out again; the simplest of them are read straight from the bytes, exactly as
 * Jackson's standard deserializers read them. Every other value (maps, lists, records, beans)
 * is read afresh by each {@code get}, so changing it changes nothing here.
 *
 * <p>Immutable and thread-safe. {@link #toString()} shows the key ID and expiry, never the
 * token or the state.
 */
public final class SessionToken {
  private final String keyId;
  private final String issuer;
  private final String audience;
  private final Map<String, String> others;
  private final Algorithm algorithm;
  private final String id;
  private final String subject;
  private final long issuedAt;
  private final long expiresAt;
  private final long notBefore;
  private final byte[] state;
  private final StateReaders readers;
  final TokenKey key;
  final KeySet keySet;
  /**
   * Not volatile: a StateIndex is safe to publish through a race (its fields are final, its
   * lazily made map volatile), so two threads at worst both build one, as with String's hash.
   */
  private StateIndex index;
  /** What a sibling module derived from this token's bytes alone ({@code StateAccess.attach}). */
  private volatile Object attachment;
  /** Immutable values already read: name, type, Optional, repeated; copied on write. */
  private volatile Object[] memo = NO_MEMO;
  private static final Object[] NO_MEMO = new Object[0];
  /** The most (name, type) reads remembered per token. */
  static final int MAX_MEMO = 16;
  private static final byte[] EMPTY_STATE = {'{', '}'};

  static {
    // The servlet filter reads the state through core's own bytes and index (internal, qualified export).
    StateAccess.register(new StateAccess.Reader() {
      @Override
      public byte[] bytes(SessionToken token) {
        return token.state == null ? EMPTY_STATE : token.state;
      }

      @Override
      public Map<String, int[]> spans(SessionToken token) {
        return token.index().spans();
      }

      @Override
      public Object attachment(SessionToken token) {
        return token.attachment;
      }

      @Override
      public void attach(SessionToken token, Object value) {
        token.attachment = value;
      }

      @Override
      public long issuedAtSecond(SessionToken token) {
        return token.issuedAt;
      }

      @Override
      public long expiresAtSecond(SessionToken token) {
        return token.expiresAt;
      }
    });
  }

  SessionToken(
      TokenKey key,
      KeySet keySet,
      String issuer,
      String audience,
      String id,
      String subject,
      long issuedAt,
      long expiresAt,
      long notBefore,
      byte[] state,
      int[] stateLayout,
      Map<String, String> others,
      StateReaders readers) {
    this.key = key;
    this.keySet = keySet;
    this.keyId = key.kid();
    this.algorithm = key.algorithm();
    this.id = id;
    this.subject = subject;
    this.issuedAt = issuedAt;
    this.expiresAt = expiresAt;
    this.notBefore = notBefore;
    this.state = state;
    // Found while the payload was read: a state read scans nothing again.
    this.index = state == null || stateLayout == null ? null : StateIndex.ofLayout(state, stateLayout);
    this.issuer = issuer;
    this.audience = audience;
    this.others = others == null ? Map.of() : Collections.unmodifiableMap(others);
    this.readers = readers;
  }

  /** The session id ({@code jti}). */
  public String id() {
    return id;
  }

  /** The issuer ({@code iss}): the one the codec requires, which the token matched exactly. */
  public String issuer() {
    return issuer;
  }

  /**
   * The audience ({@code aud}) the token was accepted for: the codec's own, which the token's
   * {@code aud} named (alone, or among others in a list).
   */
  public String audience() {
    return audience;
  }

  /**
   * The names of the token's other claims, in token order: every claim besides the registered
   * ones ({@code iss sub aud exp nbf iat jti}) and the state ({@code st}), such as {@code act}
   * or {@code sid}. Empty for the codec's session tokens unless their claims added some.
   */
  public Set<String> claimNames() {
    return others.keySet();
  }

  /**
   * Another claim's value as the JSON text it arrived in (a string comes with its quotes and
   * escapes), for any JSON library to read.
   *
   * @return the JSON text, or empty if the token has no claim of this name (registered claims
   *     and {@code st} have their own accessors and are never returned here)
   */
  public Optional<String> claimJson(String name) {
    return Optional.ofNullable(others.get(name));
  }

  /**
   * Reads another claim's value as {@code type} through the codec's StateMapper: {@code
   * String.class} for a string claim, {@code Map.class} for an object such as {@code act}.
   *
   * @return the value, or empty if the token has no claim of this name (or it is JSON {@code null})
   * @throws TokenException {@code STATE_MAPPING} if the value cannot be read as {@code type}
   */
  public <T> Optional<T> claim(String name, Class<T> type) {
    String json = others.get(name);
    if (json == null) {
      return Optional.empty();
    }
    try {
      byte[] b = json.getBytes(java.nio.charset.StandardCharsets.UTF_8);
      return Optional.ofNullable(type.cast(readers.read(type, b, 0, b.length)));
    } catch (RuntimeException e) {
      throw new TokenException(TokenException.Reason.STATE_MAPPING,
          "claim '" + name + "' cannot be read as " + type.getName() + ": check the type", e);
    }
  }

  /** The subject ({@code sub}), if the token has one. */
  public Optional<String> subject() {
    return Optional.ofNullable(subject);
  }

  /**
   * When the session was authenticated ({@code auth_time}, as in OpenID Connect), if the token
   * says: set by {@link Claims.Builder#authTime(Instant)} at login and carried unchanged by
   * {@link #toClaims()}, so sliding renewal never moves it. {@link RevocationSource} compares it
   * with a subject's "log out everywhere" instant.
   *
   * @throws TokenException {@code MALFORMED} if the claim is not a whole number of seconds
   *     between 1970 and 9999
   */
  public Optional<Instant> authTime() {
    if (!others.containsKey(AUTH_TIME)) {
      return Optional.empty();
    }
    long s = authTimeSecond();
    if (s == Long.MIN_VALUE) {
      throw new TokenException(TokenException.Reason.MALFORMED,
          "the auth_time claim is not a whole number of seconds between 1970 and 9999");
    }
    return Optional.of(Instant.ofEpochSecond(s));
  }

  /** The {@code auth_time} claim's name. */
  static final String AUTH_TIME = "auth_time";

  /** {@code auth_time} in seconds; {@code Long.MIN_VALUE} when absent or not a plain NumericDate. */
  long authTimeSecond() {
    String json = others.get(AUTH_TIME);
    if (json == null || json.isEmpty() || json.length() > 12) {
      return Long.MIN_VALUE;
    }
    long v = 0;
    for (int i = 0; i < json.length(); i++) {
      char c = json.charAt(i);
      if (c < '0' || c > '9' || (i == 0 && c == '0' && json.length() > 1)) {
        return Long.MIN_VALUE;
      }
      v = v * 10 + (c - '0');
    }
    return v > dev.sessionless.core.internal.ClaimRules.MAX_NUMERIC_DATE ? Long.MIN_VALUE : v;
  }

  /** The {@code sid} claim when it is a plain JSON string; {@code null} otherwise. */
  String sessionIdClaimOrNull() {
    String json = others.get("sid");
    if (json == null || json.length() < 3 || json.charAt(0) != '"' || json.charAt(json.length() - 1) != '"') {
      return null;
    }
    String v = json.substring(1, json.length() - 1);
    return v.indexOf('\\') >= 0 || v.indexOf('"') >= 0 ? null : v;
  }

  String subjectOrNull() {
    return subject;
  }

  /** When the token was issued ({@code iat}). */
  public Instant issuedAt() {
    return Instant.ofEpochSecond(issuedAt);
  }

  /** When the token expires ({@code exp}). */
  public Instant expiresAt() {
    return Instant.ofEpochSecond(expiresAt);
  }

  long expiresAtSecond() {
    return expiresAt;
  }

  long issuedAtSecond() {
    return issuedAt;
  }

  /** The {@code nbf} in seconds, or {@code Long.MIN_VALUE} when the token has none. */
  long notBeforeSecond() {
    return notBefore;
  }

  /** The token's not-before instant ({@code nbf}), if it has one. */
  public Optional<Instant> notBefore() {
    return notBefore == Long.MIN_VALUE ? Optional.empty() : Optional.of(Instant.ofEpochSecond(notBefore));
  }

  /** The kid of the key that verified (or decrypted) this token. */
  public String keyId() {
    return keyId;
  }

  /** The algorithm of the key that verified (or decrypted) this token. */
  public Algorithm algorithm() {
    return algorithm;
  }

  /**
   * The names of the state values, in token order.
   *
   * @throws TokenException {@code MALFORMED} if the signed state is not strictly valid JSON
   *     (a duplicated member, an unpaired surrogate)
   */
  public Set<String> stateNames() {
    return index().spans().keySet();
  }

  /** Whether the state holds a value of this name (see {@link #stateNames()} for errors). */
  public boolean has(String name) {
    return index().find(name) >= 0;
  }

  /**
   * Reads a state value as {@code type}; records, maps, lists and beans work as Jackson
   * reads them. A mutable value (a map, a list, a bean) is read afresh by each call, so
   * changing it changes neither this token nor the next read; an immutable JDK value ({@code
   * String}, boxed numbers, {@code Boolean}, {@code BigInteger}, {@code BigDecimal}) is read
   * once and the same value handed out again.
   *
   * @return the value, or empty if the state has no value of this name (or it is JSON {@code null})
   * @throws TokenException {@code STATE_MAPPING} if the value cannot be read as {@code type};
   *     {@code MALFORMED} as for {@link #stateNames()}
   */
  @SuppressWarnings("unchecked")
  public <T> Optional<T> get(String name, Class<T> type) {
    Objects.requireNonNull(type, "type");
    long span = index().find(name);
    if (span < 0) {
      return Optional.empty();
    }
    if (!readers.isPlainValue(type)) {
      return read(name, type, span);
    }
    Object[] m = memo;
    for (int k = 0; k < m.length; k += 3) {
      if (m[k + 1] == type && name.equals(m[k])) {
        return (Optional<T>) m[k + 2];
      }
    }
    Object v = readers.readPlain(type, state, (int) (span >>> 32), (int) span);
    Optional<T> value = v == StateValues.UNREAD ? read(name, type, span) : Optional.of((T) v);
    remember(name, type, value);
    return value;
  }

  /**
   * Reads a state value as a generic type, e.g. the {@code Type} of a {@code List<Item>} field.
   *
   * @see #get(String, Class)
   */
  @SuppressWarnings("unchecked")
  public <T> Optional<T> get(String name, Type type) {
    if (type instanceof Class) {
      return get(name, (Class<T>) type);
    }
    long span = index().find(name);
    return span < 0 ? Optional.empty() : read(name, Objects.requireNonNull(type, "type"), span);
  }

  private <T> Optional<T> read(String name, Type type, long span) {
    int start = (int) (span >>> 32);
    int end = (int) span;
    try {
      @SuppressWarnings("unchecked")
      T value = (T) readers.read(type, state, start, end);
      return Optional.ofNullable(value);
    } catch (RuntimeException e) {
      throw new TokenException(TokenException.Reason.STATE_MAPPING,
          "state value '" + name + "' cannot be read as " + type.getTypeName()
              + ": check the type, or the StateMapper (JSON mapper) configuration", e);
    }
  }

  /** Keeps an immutable value read, for the next get of the same name and type. */
  private void remember(String name, Class<?> type, Optional<?> value) {
    Object[] m = memo;
    if (m.length < 3 * MAX_MEMO) {
      Object[] grown = Arrays.copyOf(m, m.length + 3);
      grown[m.length] = name;
      grown[m.length + 1] = type;
      grown[m.length + 2] = value;
      memo = grown; // a racing reader of another name may be lost: it is read again next time
    }
  }

  /** The state as one JSON object text ({@code "{}"} when empty). */
  public String stateJson() {
    return state == null ? "{}" : new String(state, StandardCharsets.UTF_8);
  }

  /**
   * Content to write a follow-up token: the same session id, subject, state and other claims
   * (values carried over as their JSON). Change what you need and pass it to {@link
   * TokenCodec#encode(Claims)}.
   */
  public Claims.Builder toClaims() {
    Claims.Builder b = Claims.builder().sessionId(id);
    if (subject != null) {
      b.subject(subject);
    }
    for (Map.Entry<String, int[]> e : index().spans().entrySet()) {
      int[] s = e.getValue();
      b.put(e.getKey(), new RawJson(state, s[0], s[1] - s[0])); // the token's own bytes, never changed
    }
    for (Map.Entry<String, String> e : others.entrySet()) {
      b.claim(e.getKey(), new RawJson(e.getValue()));
    }
    return b;
  }

  private StateIndex index() {
    StateIndex i = index;
    if (i == null) {
      i = state == null ? StateIndex.empty() : StateIndex.of(state);
      index = i;
    }
    return i;
  }

  /** The key ID and expiry; never the token, the session id or the state. */
  @Override
  public String toString() {
    return "SessionToken[kid=" + keyId + ", alg=" + algorithm.joseName() + ", exp=" + expiresAt() + "]";
  }
}
