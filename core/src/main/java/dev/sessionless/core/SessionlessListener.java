package dev.sessionless.core;

import java.time.Instant;

/**
 * Told what Sessionless does, for metrics and monitoring: tokens verified (from the cache or
 * not), rejected by reason, made; key-set changes and key-source checks (keyring); cookies
 * written and sessions refused (servlet filter). Every method has an empty default, so an
 * implementation overrides what it counts; {@link #NONE} counts nothing and costs nothing.
 *
 * <p>Set one on {@link TokenCodec.Builder#listener(SessionlessListener)}, and on the keyring's
 * and filter's builders for their events. The module {@code sessionless-micrometer} binds it to
 * Micrometer; core depends on no metrics library.
 *
 * <p><b>Contract.</b> Methods are called on the request thread (token and cookie events) or on
 * the keyring's refresh thread (key events), so they must return quickly, never block and never
 * do I/O. An exception thrown by a listener never breaks a request or a refresh: it is caught
 * and logged once per listener (logger {@code dev.sessionless.core.SessionlessListener}).
 *
 * <p><b>Security.</b> No argument carries a token, a claim, a user or session identifier, or key
 * material: kids, algorithms, reasons, sizes and source descriptions only. Keep it that way in
 * tags: a kid is a bounded tag only where the key count is.
 *
 * <p>Methods may be added in later versions, always with an empty default.
 */
public interface SessionlessListener {
  /** The listener that does nothing: the default everywhere. */
  SessionlessListener NONE = new SessionlessListener() {
    @Override
    public String toString() {
      return "SessionlessListener.NONE";
    }
  };

  /**
   * A token was accepted by {@link TokenCodec#decode(String)}.
   *
   * @param kid the kid of the key that verified it
   * @param algorithm that key's algorithm
   * @param cacheHit whether the verification cache served it (no signature check or decryption)
   */
  default void tokenVerified(String kid, Algorithm algorithm, boolean cacheHit) {}

  /**
   * {@link TokenCodec#decode(String)} threw: a rejection of the token when {@link
   * TokenException.Reason#isRejection()} is true, otherwise a failure on this side ({@code
   * INTERNAL}) that deserves an alert. The verification cache was missed, or not used.
   *
   * @param reason the reason of the {@link TokenException} thrown
   */
  default void tokenRejected(TokenException.Reason reason) {}

  /**
   * A token was made by {@link TokenCodec#encode(Claims)}.
   *
   * @param kid the kid of the signing (or encrypting) key
   * @param algorithm its algorithm
   * @param length the token's length in characters
   */
  default void tokenEncoded(String kid, Algorithm algorithm, int length) {}

  /**
   * The keys in force changed (a keyring published a new snapshot): keys added, removed, or
   * with another lifecycle or material.
   *
   * @param previous the snapshot before (empty at the keyring's start)
   * @param current the snapshot in force now
   */
  default void keySetChanged(KeySet previous, KeySet current) {}

  /**
   * A keyring checked one of its sources (a file poll, an HTTP JWKS fetch, ...).
   *
   * @param source the source's description (a path, a variable name, a URL without its query)
   * @param outcome {@code "ok"} for a good check (changed or not), otherwise the failure's reason
   *     in lower case ({@code "unavailable"}, {@code "malformed"}, {@code "internal"}, ...)
   * @param lastSuccess when the source last answered well, {@link Instant#MIN} if never; a
   *     source's staleness is now minus this
   */
  default void keySourceChecked(String source, String outcome, Instant lastSuccess) {}

  /**
   * The servlet filter wrote a session token to the response.
   *
   * @param bytes the size of the token cookie(s) as sent, name and attributes included
   * @param chunks how many cookies the token was split into (1 when not split)
   */
  default void cookieWritten(int bytes, int chunks) {}

  /**
   * The servlet filter refused a token a request carried: the request goes on without its
   * session (a rejection) or fails as a server error (a failure on this side).
   *
   * @param reason the reason the token was refused
   */
  default void sessionRejected(TokenException.Reason reason) {}

  /**
   * The servlet filter found a session change the application made after the response had
   * committed: the cookie could not carry it, so the change is lost. Reported once per request.
   *
   * @param what {@code attribute} (an attribute set or removed, the id or the max-inactive
   *     interval changed), {@code in-place} (a value the application held changed without a
   *     {@code setAttribute}) or {@code invalidate} (the session was invalidated); more may be added
   */
  default void sessionChangeDropped(String what) {}
}
