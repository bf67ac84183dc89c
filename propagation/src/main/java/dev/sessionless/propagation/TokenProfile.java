package dev.sessionless.propagation;

/**
 * Which claims an internal token carries and which header carries it: chosen once per
 * deployment, the same on the minter ({@link InternalTokenMinter.Builder#profile}), the verifier
 * ({@link InternalTokenVerifier.Builder#profile}) and so the filters and client helpers. Both
 * profiles share one rule (signature, expiry, key rotation, JWKS, narrowing at every re-mint);
 * they differ only in how the claims are named and where the token travels.
 */
public enum TokenProfile {
  /**
   * This project's own profile, the default: {@code typ} {@value InternalTokens#TOKEN_TYPE},
   * {@code aud} the callee service, the state values in {@code st}; sent as {@code
   * Authorization: Bearer <token>}.
   */
  INTERNAL(InternalTokens.TOKEN_TYPE, "Authorization"),
  /**
   * OAuth Transaction Tokens ({@link TransactionTokens}): {@code typ} {@value
   * TransactionTokens#TOKEN_TYPE}, {@code aud} the trust domain, {@code txn}, {@code scope},
   * {@code req_wl}, {@code rctx} (the trace id) and {@code tctx} (the state values); sent as
   * {@code Txn-Token: <token>}.
   */
  TXN_TOKEN(TransactionTokens.TOKEN_TYPE, TransactionTokens.HEADER);

  private final String tokenType;
  private final String header;

  TokenProfile(String tokenType, String header) {
    this.tokenType = tokenType;
    this.header = header;
  }

  /** The {@code typ} header of this profile's tokens. */
  public String tokenType() {
    return tokenType;
  }

  /** The HTTP header that carries the token unless another is configured. */
  public String header() {
    return header;
  }

  /**
   * The header value for {@code token}: {@code Bearer <token>} in the {@code Authorization}
   * style of {@link #INTERNAL}, the bare token in {@link #TXN_TOKEN}'s header.
   */
  public String headerValue(String token) {
    return this == TXN_TOKEN ? token : "Bearer " + token;
  }

  /**
   * The token in a header value as {@link #headerValue} writes it, or null if there is none: a
   * {@code Bearer} token68, or, for {@link #TXN_TOKEN}, exactly one token with no space or comma
   * in it (the draft: "exactly one Txn-Token").
   */
  public String tokenOf(String value) {
    if (this == INTERNAL) {
      return dev.sessionless.propagation.internal.Admission.bearer(value);
    }
    if (value == null) {
      return null;
    }
    String t = value.trim();
    return t.isEmpty() || t.indexOf(' ') >= 0 || t.indexOf(',') >= 0 || t.indexOf('\t') >= 0 ? null : t;
  }

  /** The property value naming this profile: {@code internal} or {@code txn-token}. */
  public String propertyValue() {
    return this == TXN_TOKEN ? "txn-token" : "internal";
  }

  /**
   * The profile a property value names.
   *
   * @throws IllegalArgumentException if it is neither {@code internal} nor {@code txn-token}
   */
  public static TokenProfile fromPropertyValue(String value) {
    if ("internal".equals(value)) {
      return INTERNAL;
    }
    if ("txn-token".equals(value)) {
      return TXN_TOKEN;
    }
    throw new IllegalArgumentException("the token profile is 'internal' (the default) or 'txn-token', got '"
        + value + "'");
  }
}
