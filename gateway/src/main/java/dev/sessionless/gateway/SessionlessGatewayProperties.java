package dev.sessionless.gateway;

import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code sessionless.gateway.*} properties: what only the gateway needs beside {@code
 * sessionless.propagation.send.*} (its issuer, keys, lifetime, grants, header and JWKS endpoint).
 */
@ConfigurationProperties("sessionless.gateway")
public class SessionlessGatewayProperties {
  /**
   * The browser's session cookies, never sent downstream (with their chunks NAME.1, NAME.2, ...).
   * When not set: sessionless.cookie.name (SESSIONLESS unless set) and WebFlux's session cookie,
   * SESSION.
   */
  private List<String> sessionCookies = new ArrayList<>();

  /** Used by Spring. */
  public SessionlessGatewayProperties() {}

  /** The session cookies to keep at the gateway; empty for the defaults. */
  public List<String> getSessionCookies() {
    return sessionCookies;
  }

  /** Sets the session cookies to keep at the gateway: cookie names. */
  public void setSessionCookies(List<String> sessionCookies) {
    this.sessionCookies = sessionCookies;
  }
}
