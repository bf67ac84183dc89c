package dev.sessionless.propagation;

/**
 * Every name of the Transaction Token profile ({@link TokenProfile#TXN_TOKEN}) in one place:
 * the ones OAuth's Transaction Tokens draft defines and the ones this project adds beside them.
 *
 * <p>The draft implemented is {@code draft-ietf-oauth-transaction-tokens}, the editor's copy
 * after {@code -08} at commit {@code dbdf43eb} of {@code oauth-wg/oauth-transaction-tokens},
 * vendored under {@code propagation/spec/}. Earlier drafts named the subject {@code sub_id} and
 * the purpose {@code purp} (renamed {@code scope} in {@code -06}); this one names them {@code
 * sub} and {@code scope}, and so does this profile.
 */
public final class TransactionTokens {
  /** The {@code typ} header the draft requires (section "JWT Header"). */
  public static final String TOKEN_TYPE = "txntoken+jwt";
  /** The HTTP header that carries exactly one token, without a scheme (section "Txn-Token HTTP Header"). */
  public static final String HEADER = "Txn-Token";
  /** The token type URN of RFC 8693 token exchange for a Transaction Token. */
  public static final String TOKEN_TYPE_URN = "urn:ietf:params:oauth:token-type:txn_token";
  /** The unique transaction identifier (RFC 8417 section 2.2), kept unchanged by every re-mint. */
  public static final String TRANSACTION_ID_CLAIM = "txn";
  /** The purpose of the transaction: space-delimited, as RFC 8693 section 4.2's {@code scope}. */
  public static final String SCOPE_CLAIM = "scope";
  /** The workload that requested the token: here the minting service, as {@code iss} and {@code act.sub}. */
  public static final String REQUESTING_WORKLOAD_CLAIM = "req_wl";
  /** The request context: environmental values of the originating request (an object). */
  public static final String REQUEST_CONTEXT_CLAIM = "rctx";
  /**
   * The transaction context: the values that stay fixed through the call chain (an object).
   * This profile puts the granted session state values here, each under its own name.
   */
  public static final String TRANSACTION_CONTEXT_CLAIM = "tctx";
  /** This project's member of {@code rctx}: the W3C trace id of the request at the edge. */
  public static final String TRACE_ID = "trace_id";
  /** The bounds a token was minted in, as in the internal profile: {@value InternalTokens#PARENT_CLAIM}. */
  public static final String PARENT_CLAIM = InternalTokens.PARENT_CLAIM;
  /** This project's member of {@value #PARENT_CLAIM}: the scope values of the parent, as a list. */
  public static final String PARENT_SCOPE = "scope";

  private TransactionTokens() {}
}
