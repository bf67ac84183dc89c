package dev.sessionless.propagation;

/**
 * Internal service tokens: what sets them apart from browser session tokens, and the claims
 * they carry besides the registered ones.
 *
 * <p>An internal token carries the {@code typ} header {@value #TOKEN_TYPE}, a media type in the
 * short form RFC 7515 section 4.1.9 allows, as RFC 8725 section 3.11 (explicit typing) advises:
 * codecs built with {@code TokenCodec.Builder.tokenType(InternalTokens.TOKEN_TYPE)} write it and
 * require it, and refuse a browser session token (which has none) with {@code
 * WRONG_TOKEN_TYPE}; a session codec refuses an internal token the same way. Because the
 * {@code typ} is inside the signed header, it cannot be changed without breaking the signature.
 */
public final class InternalTokens {
  /** The {@code typ} header of internal service tokens. */
  public static final String TOKEN_TYPE = "sl-internal+jwt";
  /** The browser session's id, the same in every internal token of one session. */
  public static final String SESSION_ID_CLAIM = "sid";
  /** The actor chain, RFC 8693 section 4.1: {@code {"sub": current, "act": {"sub": earlier}}}. */
  public static final String ACTOR_CLAIM = "act";
  /**
   * When the user authenticated (OpenID Connect's {@code auth_time}, seconds), carried
   * unchanged from the edge's session into every internal token; a receiver's revocation source
   * compares it with the subject's "log out everywhere" instant.
   */
  public static final String AUTH_TIME_CLAIM = "auth_time";
  /**
   * The bounds a token was minted within: {@code {"exp": the parent's expiry, "st": [the
   * parent's state names], "auth_time": the parent's auth_time (when it has one)}}, where the
   * parent is the token (or, at the edge, the session) it was minted from. A receiver refuses a
   * token whose expiry or state exceeds them, or whose {@code auth_time} is later than the
   * parent's (or present when the parent had none).
   */
  public static final String PARENT_CLAIM = "sl_parent";

  private InternalTokens() {}
}
