package dev.sessionless.core.internal;

import dev.sessionless.core.SessionToken;
import java.util.Map;

/**
 * A verified token's state as core holds it, for the servlet filter: the signed bytes and the
 * strict index core already built (and keeps with the token, so with its verification-cache
 * entry), so the filter neither copies the state to a {@code String} and back nor parses it a
 * second time. Read-only by contract: the bytes are the token's own and must never be changed.
 * {@link SessionToken} registers the accessor when its class is initialised, which has always
 * happened before anyone holds a token to ask about.
 */
public final class StateAccess {
  /** How core reaches a token's private state. */
  public interface Reader {
    /** The state object's bytes ({@code {}} for none); never to be modified. */
    byte[] bytes(SessionToken token);

    /**
     * The spans {@code [start, end)} in {@link #bytes} of each top-level value, by name, in
     * token order; unmodifiable.
     *
     * @throws dev.sessionless.core.TokenException {@code MALFORMED} if the state is not strictly
     *     valid JSON (as {@link SessionToken#stateNames()})
     */
    Map<String, int[]> spans(SessionToken token);

    /** What {@link #attach} last kept with {@code token}, or {@code null}. */
    Object attachment(SessionToken token);

    /** Keeps {@code value} with {@code token}, replacing what was kept. */
    void attach(SessionToken token, Object value);

    /** {@code iat} in epoch seconds, without an {@code Instant}. */
    long issuedAtSecond(SessionToken token);

    /** {@code exp} in epoch seconds, without an {@code Instant}. */
    long expiresAtSecond(SessionToken token);
  }

  private static volatile Reader reader;

  private StateAccess() {}

  /** Called once, by {@link SessionToken}'s class initialiser. */
  public static void register(Reader r) {
    if (reader != null) {
      throw new IllegalStateException("the state accessor is registered once, by SessionToken");
    }
    reader = r;
  }

  /** The state bytes of {@code token}: read them, never change them. */
  public static byte[] bytes(SessionToken token) {
    return reader.bytes(token);
  }

  /** Where each top-level state value of {@code token} sits in {@link #bytes}. */
  public static Map<String, int[]> spans(SessionToken token) {
    return reader.spans(token);
  }

  /** {@code iat} of {@code token} in epoch seconds: {@link SessionToken#issuedAt()} without allocating. */
  public static long issuedAtSecond(SessionToken token) {
    return reader.issuedAtSecond(token);
  }

  /** {@code exp} of {@code token} in epoch seconds: {@link SessionToken#expiresAt()} without allocating. */
  public static long expiresAtSecond(SessionToken token) {
    return reader.expiresAtSecond(token);
  }

  /**
   * What a sibling module kept with {@code token} ({@link #attach}) if it is a {@code kind},
   * else {@code null}. A verification-cache hit returns the very token that was cached, so what
   * was derived from it once is found again without deriving it per request.
   */
  public static <T> T attached(SessionToken token, Class<T> kind) {
    Object a = reader.attachment(token);
    return kind.isInstance(a) ? kind.cast(a) : null;
  }

  /**
   * Keeps {@code value} with {@code token} for {@link #attached}: one slot per token, so only
   * for what follows from the token's own bytes alone (the same token always yields the same
   * value), immutable, and safe to share between threads. Racing callers may each attach; the
   * last one stays.
   */
  public static void attach(SessionToken token, Object value) {
    reader.attach(token, value);
  }
}
