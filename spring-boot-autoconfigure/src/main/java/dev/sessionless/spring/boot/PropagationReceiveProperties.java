package dev.sessionless.spring.boot;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code sessionless.propagation.receive.*} properties: verifying internal tokens, on when
 * {@code audience} is set.
 */
public class PropagationReceiveProperties {
  /**
   * This service's own name, the aud every internal token it accepts must carry (with the
   * txn-token profile, the trust domain). Setting it turns the receiving side on (the verifier
   * and the filter).
   */
  private String audience;

  /**
   * The issuers this service accepts, each with its issuer (iss) and the HTTPS URL of its
   * JWKS; at least one.
   */
  private List<Issuer> issuers = new ArrayList<>();

  /**
   * The request header carrying the token; unless set, the profile's: Authorization ("Bearer
   * TOKEN") or Txn-Token (the bare token).
   */
  private String header;

  /**
   * The URL patterns (servlet mapping syntax) that require an internal token; every request
   * (/*) unless set. Requests outside them are left to the application (health probes, say).
   */
  private List<String> urlPatterns = new ArrayList<>(List.of("/*"));

  /**
   * The order of the internal token filter: Integer.MIN_VALUE + 60 by default, after the
   * session filter and before Spring Security's filter chain (-100), which it must precede.
   */
  private int filterOrder = Integer.MIN_VALUE + 60;

  /** Used by Spring. */
  public PropagationReceiveProperties() {}

  /** This service's audience, or {@code null} when the receiving side is off. */
  public String getAudience() {
    return audience;
  }

  /** Sets this service's audience, which turns the receiving side on: the aud tokens must carry. */
  public void setAudience(String audience) {
    this.audience = audience;
  }

  /** The accepted issuers, in order. */
  public List<Issuer> getIssuers() {
    return issuers;
  }

  /** Sets the accepted issuers: each issuer and its JWKS URL. */
  public void setIssuers(List<Issuer> issuers) {
    this.issuers = issuers;
  }

  /** The header carrying the token: the one set, else Authorization (the internal profile's). */
  public String getHeader() {
    return header != null ? header : "Authorization";
  }

  /** The header set, or null when left to the token profile's. */
  String configuredHeader() {
    return header;
  }

  /** Sets the header carrying the token. */
  public void setHeader(String header) {
    this.header = header;
  }

  /** The URL patterns that require a token. */
  public List<String> getUrlPatterns() {
    return urlPatterns;
  }

  /** Sets the URL patterns that require a token. */
  public void setUrlPatterns(List<String> urlPatterns) {
    this.urlPatterns = urlPatterns;
  }

  /** The filter's order. */
  public int getFilterOrder() {
    return filterOrder;
  }

  /** Sets the filter's order, below Spring Security's filter order. */
  public void setFilterOrder(int filterOrder) {
    this.filterOrder = filterOrder;
  }

  /** One accepted issuer and where its public keys are published. */
  public static class Issuer {
    /** The issuer's identity, the iss of its tokens (e.g. https://edge.example). */
    private String issuer;

    /** The issuer's JWKS (its JwksServlet), https; plain http only with allow-insecure-plain-http. */
    private URI jwksUrl;

    /**
     * Allow a plain http JWKS URL (the keyring's httpAllowInsecurePlainHttp): INSECURE, since
     * anyone on the network path could then forge tokens. For loopback and tests, or a local
     * service-mesh sidecar; a plain http URL to another host is logged as a warning.
     */
    private boolean allowInsecurePlainHttp;

    /**
     * Whether the startup fails when the JWKS cannot be fetched (the default, true). With false
     * the service starts without this issuer's keys, logs it loudly and keeps fetching with
     * back-off; until the keys arrive, that issuer's tokens are refused (401). For services that
     * may start before the issuer does.
     */
    private boolean requiredAtStart = true;

    /** Used by Spring. */
    public Issuer() {}

    /** Whether the JWKS must be fetched at startup. */
    public boolean isRequiredAtStart() {
      return requiredAtStart;
    }

    /** Sets whether the JWKS must be fetched at startup ({@code false}: start without, fetch later). */
    public void setRequiredAtStart(boolean requiredAtStart) {
      this.requiredAtStart = requiredAtStart;
    }

    /** The issuer (its iss). */
    public String getIssuer() {
      return issuer;
    }

    /** Sets the issuer (its iss). */
    public void setIssuer(String issuer) {
      this.issuer = issuer;
    }

    /** The issuer's JWKS URL. */
    public URI getJwksUrl() {
      return jwksUrl;
    }

    /** Sets the issuer's JWKS URL. */
    public void setJwksUrl(URI jwksUrl) {
      this.jwksUrl = jwksUrl;
    }

    /** Whether a plain http JWKS URL is allowed. */
    public boolean isAllowInsecurePlainHttp() {
      return allowInsecurePlainHttp;
    }

    /** Allows a plain http JWKS URL (insecure; loopback and tests): {@code true} to allow. */
    public void setAllowInsecurePlainHttp(boolean allowInsecurePlainHttp) {
      this.allowInsecurePlainHttp = allowInsecurePlainHttp;
    }
  }
}
