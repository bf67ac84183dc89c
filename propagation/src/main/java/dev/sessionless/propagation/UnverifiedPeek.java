package dev.sessionless.propagation;

import java.util.Base64;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenException.Reason;

/**
 * What {@link InternalTokenVerifier} reads of a token before verifying it: the header's {@code
 * typ}, only to refuse a token of another kind early, and the payload's {@code iss}, only to
 * choose which issuer's codec verifies it. Neither is trusted: the codec checks both exactly.
 */
final class UnverifiedPeek {
  private static final ObjectMapper PEEK = JsonMapper.builder().build();

  private UnverifiedPeek() {}

  /**
   * Refuses, with {@code WRONG_TOKEN_TYPE}, a token whose unverified header has no {@code typ}
   * {@value InternalTokens#TOKEN_TYPE} (compared ASCII-only, case-insensitively, as RFC 7515
   * section 4.1.9 asks): a browser session token (no {@code typ}, or {@code JWT}) sent as a
   * bearer token is named for what it is before its issuer is looked at. Only ever refuses: the
   * codec still checks the verified header exactly.
   */
  static void requireInternalType(String token) {
    requireType(token, TokenProfile.INTERNAL);
  }

  /** As {@link #requireInternalType}, for the {@code typ} of {@code profile}. */
  static void requireType(String token, TokenProfile profile) {
    int a = token.indexOf('.');
    if (a < 0) {
      throw new TokenException(Reason.MALFORMED, "not a compact JWS: expected three parts separated by dots");
    }
    JsonNode typ;
    try {
      byte[] header = Base64.getUrlDecoder().decode(token.substring(0, a));
      JsonNode h = PEEK.readTree(header);
      typ = h == null ? null : h.get("typ");
    } catch (RuntimeException e) {
      throw new TokenException(Reason.MALFORMED, "the token's header is not base64url JSON");
    }
    if (typ == null || !typ.isString() || !asciiEqualsIgnoreCase(typ.asString(), profile.tokenType())) {
      throw new TokenException(Reason.WRONG_TOKEN_TYPE, "this service takes tokens of typ '" + profile.tokenType()
          + "' (the " + profile.propertyValue() + " profile), and this one is not (a browser session token, or a token "
          + "of the other profile?): send a token minted with InternalTokenMinter or OutgoingTokens of the same profile");
    }
  }

  /** Case-insensitive for ASCII letters only: no Unicode folding ({@code ſ} is not {@code s}). */
  static boolean asciiEqualsIgnoreCase(String a, String b) {
    if (a.length() != b.length()) {
      return false;
    }
    for (int i = 0; i < a.length(); i++) {
      char x = a.charAt(i);
      char y = b.charAt(i);
      if (x >= 'A' && x <= 'Z') {
        x = (char) (x + 32);
      }
      if (y >= 'A' && y <= 'Z') {
        y = (char) (y + 32);
      }
      if (x != y) {
        return false;
      }
    }
    return true;
  }

  /** The unverified {@code iss}, only to choose a codec; the codec then checks it exactly. */
  static String issuer(String token) {
    int a = token.indexOf('.');
    int b = a < 0 ? -1 : token.indexOf('.', a + 1);
    if (b < 0) {
      throw new TokenException(Reason.MALFORMED, "not a compact JWS: expected three parts separated by dots");
    }
    try {
      byte[] payload = Base64.getUrlDecoder().decode(token.substring(a + 1, b));
      JsonNode iss = PEEK.readTree(payload).get("iss");
      return iss != null && iss.isString() ? iss.asString() : "";
    } catch (RuntimeException e) {
      throw new TokenException(Reason.MALFORMED, "the token's payload is not base64url JSON");
    }
  }
}
