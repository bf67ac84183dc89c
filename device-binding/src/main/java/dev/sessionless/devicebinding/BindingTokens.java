package dev.sessionless.devicebinding;

import dev.sessionless.core.Claims;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;

/**
 * The two cookies of a bound session, both tokens of core's codec: the long-lived one (the DBSC
 * session id, the device key and the last refresh time; sent only to the refresh endpoint) and
 * the short-lived bound cookie (the DBSC session id) that ordinary requests need. Each has its
 * own {@code typ} and audience, so neither is ever accepted as the other or as a session token.
 */
final class BindingTokens {
  static final String LONG_LIVED_TYPE = "dbsc-session+jwt";
  static final String BOUND_TYPE = "dbsc-bound+jwt";

  final TokenCodec longLived;
  final TokenCodec bound;
  final String longLivedName;
  final String boundName;
  final Duration longLivedLifetime;
  final Duration boundLifetime;
  private final String refreshPath;

  BindingTokens(DeviceBindingBuilder<?> b) {
    longLived = TokenCodec.builder().keys(b.keys).algorithm(b.algorithm).issuer(b.issuer)
        .audience("dbsc-session").tokenType(LONG_LIVED_TYPE).timeToLive(b.sessionLifetime).clock(b.clock)
        .verificationCache(0).build();
    bound = TokenCodec.builder().keys(b.keys).algorithm(b.algorithm).issuer(b.issuer)
        .audience("dbsc-bound").tokenType(BOUND_TYPE).timeToLive(b.boundLifetime).clock(b.clock)
        // The bound cookie's lifetime is what a copy is worth: core's default 30 s of skew would add half a minute.
        .clockSkew(Duration.ofSeconds(5)).build();
    longLivedName = b.longLivedCookieName;
    boundName = b.boundCookieName;
    longLivedLifetime = b.sessionLifetime;
    boundLifetime = b.boundLifetime;
    refreshPath = b.refreshPath;
  }

  /** The bound cookie's attributes, as on its Set-Cookie line and in the session instructions. */
  static String boundAttributes(String contextPath) {
    return "Path=" + (contextPath.isEmpty() ? "/" : contextPath) + "; Secure; HttpOnly; SameSite=Lax";
  }

  /** The two Set-Cookie values for DBSC session {@code id} bound as {@code binding}: long-lived, then bound. */
  String[] setCookies(String contextPath, String id, SessionBinding binding) {
    String ll = longLived.encode(binding.writeTo(Claims.builder().sessionId(id)).build());
    String bc = bound.encode(Claims.builder().sessionId(id).build());
    return new String[] {
      longLivedName + "=" + ll + "; Max-Age=" + longLivedLifetime.toSeconds() + "; "
          + "Path=" + contextPath + refreshPath + "; Secure; HttpOnly; SameSite=Strict",
      boundName + "=" + bc + "; Max-Age=" + boundLifetime.toSeconds() + "; " + boundAttributes(contextPath)};
  }

  /**
   * Whether {@code cookie} is a valid bound cookie of DBSC session {@code id}.
   *
   * @throws TokenException whose reason is no rejection, if it cannot be checked now
   */
  boolean boundTo(String cookie, String id) {
    SessionToken token;
    try {
      token = bound.decode(cookie);
    } catch (TokenException e) {
      if (e.reason().isRejection()) {
        return false;
      }
      throw e;
    }
    return MessageDigest.isEqual(token.id().getBytes(StandardCharsets.UTF_8), id.getBytes(StandardCharsets.UTF_8));
  }
}
