package dev.sessionless.devicebinding;

/**
 * Every header, parameter, JSON member and value name of the DBSC draft this module implements
 * (W3C webappsec-dbsc at commit {@value #DRAFT_COMMIT}), in one place: a later draft that renames
 * something is a change here.
 */
public final class DbscNames {
  private DbscNames() {}

  /** The commit of the {@code w3c/webappsec-dbsc} editor's draft implemented (see {@code spec/SOURCE.md}). */
  public static final String DRAFT_COMMIT = "d34681127abcef5fad67a1fd99cd0849f7b9b4b0";

  // Response headers (server to browser).
  /** Response header that starts a registration: a structured-field list of inner lists of algorithms. */
  public static final String REGISTRATION_HEADER = "Secure-Session-Registration";
  /** Response header carrying a challenge string with its {@code id} parameter (the session identifier). */
  public static final String CHALLENGE_HEADER = "Secure-Session-Challenge";

  // Request headers (browser to server).
  /** Request header carrying the signed proof, a structured-field string. */
  public static final String RESPONSE_HEADER = "Secure-Session-Response";
  /** Request header on a refresh naming the session, a structured-field string. */
  public static final String SESSION_ID_HEADER = "Sec-Secure-Session-Id";
  /** Request header a browser adds when it skipped a refresh (quota, unreachable, server error). */
  public static final String SKIPPED_HEADER = "Secure-Session-Skipped";

  // Parameters of the registration header.
  /** Registration-header parameter: the registration endpoint's path or URL. */
  public static final String PARAM_PATH = "path";
  /** Registration-header parameter: the challenge the proof's {@code jti} must copy. */
  public static final String PARAM_CHALLENGE = "challenge";
  /** Registration-header parameter: a string the proof's {@code authorization} claim must copy. */
  public static final String PARAM_AUTHORIZATION = "authorization";
  /** Challenge-header parameter: the session identifier the challenge is for. */
  public static final String PARAM_ID = "id";

  // The proof (a JWS).
  /** The proof's {@code typ} header value. */
  public static final String PROOF_TYPE = "dbsc+jwt";
  /** Proof header: the JWS algorithm. */
  public static final String JWT_ALG = "alg";
  /** Proof header: the token type. */
  public static final String JWT_TYP = "typ";
  /** Proof header: the public key, on registration. */
  public static final String JWT_JWK = "jwk";
  /** Proof header: critical extensions (none are understood, so any is refused). */
  public static final String JWT_CRIT = "crit";
  /** Proof claim: the challenge. */
  public static final String CLAIM_JTI = "jti";
  /** Proof claim: the copy of the registration header's {@code authorization}. */
  public static final String CLAIM_AUTHORIZATION = "authorization";
  /** Proof claim some clients (and older drafts) add: the endpoint URL the proof is for; not in this draft. */
  public static final String CLAIM_AUD = "aud";
  /** Proof claim some clients (and older drafts) add: when the proof was signed; not in this draft. */
  public static final String CLAIM_IAT = "iat";
  /** Algorithm name: ECDSA P-256 with SHA-256. */
  public static final String ES256 = "ES256";
  /** Algorithm name: RSASSA-PKCS1-v1_5 with SHA-256. */
  public static final String RS256 = "RS256";

  // Session instructions (JSON).
  /** Instructions member: the session identifier. */
  public static final String SESSION_IDENTIFIER = "session_identifier";
  /** Instructions member: where refreshes go. */
  public static final String REFRESH_URL = "refresh_url";
  /** Instructions member: false ends the session. */
  public static final String CONTINUE = "continue";
  /** Instructions member: the scope object. */
  public static final String SCOPE = "scope";
  /** Instructions member: the bound credentials. */
  public static final String CREDENTIALS = "credentials";
  /** Instructions member: out-of-scope hosts that may start a refresh. */
  public static final String ALLOWED_REFRESH_INITIATORS = "allowed_refresh_initiators";
  /** Scope member: the origin. */
  public static final String SCOPE_ORIGIN = "origin";
  /** Scope member: site-wide (true) or origin-only (false). */
  public static final String SCOPE_INCLUDE_SITE = "include_site";
  /** Scope member: the include and exclude rules. */
  public static final String SCOPE_SPECIFICATION = "scope_specification";
  /** Scope-rule and credential member: the rule's type or the credential's type. */
  public static final String TYPE = "type";
  /** Scope-rule member: the domain pattern. */
  public static final String RULE_DOMAIN = "domain";
  /** Scope-rule member: the path prefix. */
  public static final String RULE_PATH = "path";
  /** Scope-rule type: include. */
  public static final String RULE_INCLUDE = "include";
  /** Scope-rule type: exclude. */
  public static final String RULE_EXCLUDE = "exclude";
  /** Credential member: the cookie's name. */
  public static final String CREDENTIAL_NAME = "name";
  /** Credential member: the cookie's attributes, as on a {@code Set-Cookie} line. */
  public static final String CREDENTIAL_ATTRIBUTES = "attributes";
  /** Credential type: a cookie (the only one the draft knows). */
  public static final String CREDENTIAL_COOKIE = "cookie";
}
