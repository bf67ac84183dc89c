package dev.sessionless.propagation;

/**
 * Internal service tokens: what sets them apart from browser session tokens.
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

  private InternalTokens() {}
}
