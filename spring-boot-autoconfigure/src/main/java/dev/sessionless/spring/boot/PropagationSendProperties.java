package dev.sessionless.spring.boot;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code sessionless.propagation.send.*} properties: minting internal tokens, on when {@code
 * issuer} is set.
 */
public class PropagationSendProperties {
  /**
   * This service's identity, the iss of the tokens it mints (e.g. https://edge.example).
   * Setting it turns the sending side on (the minter, the JWKS endpoint, the edge filter).
   */
  private String issuer;

  /**
   * A JWKS file with this service's ES256 or EdDSA signing keys (private parts included),
   * re-read when it changes; symmetric keys are refused. Required with issuer.
   */
  private Path keysFile;

  /** ES256 or EdDSA; the algorithm of the signing key in keys-file when not set. */
  private String algorithm;

  /** How long a minted token lives: whole seconds, 1 s to 1 h. */
  private Duration timeToLive = Duration.ofSeconds(60);

  /**
   * The state values each callee receives, by audience: e.g. grants.orders=cart,tenant. A
   * callee without a grant gets no token.
   */
  private Map<String, List<String>> grants = new LinkedHashMap<>();

  /**
   * The request header outgoing tokens travel in; unless set, the profile's: Authorization (as
   * "Bearer TOKEN") or Txn-Token (the bare token).
   */
  private String header;

  /** With the txn-token profile: the trust domain, the aud of every token minted. */
  private String trustDomain;

  /**
   * With the txn-token profile: the scope of the tokens minted at the edge (e.g. trade.stocks);
   * a service that only re-mints passes its caller's on.
   */
  private List<String> scope = new ArrayList<>();

  /**
   * The session attribute holding the user id (a String), carried as sub; when not set, the
   * name of the Spring Security login the token session keeps (none without one).
   */
  private String subjectAttribute;

  /** The JWKS endpoint publishing the public keys of keys-file. */
  private final Jwks jwks = new Jwks();

  /** The edge filter, binding each request's session and trace for outgoing calls. */
  private final EdgeFilter edgeFilter = new EdgeFilter();

  /** Used by Spring. */
  public PropagationSendProperties() {}

  /** This service's identity, or {@code null} when the sending side is off. */
  public String getIssuer() {
    return issuer;
  }

  /** Sets this service's identity, which turns the sending side on: the iss of minted tokens. */
  public void setIssuer(String issuer) {
    this.issuer = issuer;
  }

  /** The JWKS file with the signing keys. */
  public Path getKeysFile() {
    return keysFile;
  }

  /** Sets the signing key file: a JWKS file with ES256 or EdDSA private keys. */
  public void setKeysFile(Path keysFile) {
    this.keysFile = keysFile;
  }

  /** The signing algorithm: ES256 or EdDSA, or {@code null} for the key file's. */
  public String getAlgorithm() {
    return algorithm;
  }

  /** Sets the signing algorithm: ES256 or EdDSA. */
  public void setAlgorithm(String algorithm) {
    this.algorithm = algorithm;
  }

  /** The lifetime of a minted token. */
  public Duration getTimeToLive() {
    return timeToLive;
  }

  /** Sets the lifetime of a minted token: whole seconds, 1 s to 1 h. */
  public void setTimeToLive(Duration timeToLive) {
    this.timeToLive = timeToLive;
  }

  /** The state names granted to each audience. */
  public Map<String, List<String>> getGrants() {
    return grants;
  }

  /** Sets the state names granted to each audience. */
  public void setGrants(Map<String, List<String>> grants) {
    this.grants = grants;
  }

  /** The trust domain of the txn-token profile. */
  public String getTrustDomain() {
    return trustDomain;
  }

  /** Sets the trust domain of the txn-token profile. */
  public void setTrustDomain(String trustDomain) {
    this.trustDomain = trustDomain;
  }

  /** The scope of the txn-token profile's tokens minted at the edge. */
  public List<String> getScope() {
    return scope;
  }

  /** Sets the scope of the txn-token profile's tokens minted at the edge. */
  public void setScope(List<String> scope) {
    this.scope = scope;
  }

  /** The outgoing header: the one set, else Authorization (the internal profile's). */
  public String getHeader() {
    return header != null ? header : "Authorization";
  }

  /** The header set, or null when left to the token profile's. */
  String configuredHeader() {
    return header;
  }

  /** Sets the outgoing header. */
  public void setHeader(String header) {
    this.header = header;
  }

  /** The session attribute holding the subject: the attribute name, or {@code null}. */
  public String getSubjectAttribute() {
    return subjectAttribute;
  }

  /** Sets the session attribute holding the subject. */
  public void setSubjectAttribute(String subjectAttribute) {
    this.subjectAttribute = subjectAttribute;
  }

  /** The JWKS endpoint. */
  public Jwks getJwks() {
    return jwks;
  }

  /** The edge filter. */
  public EdgeFilter getEdgeFilter() {
    return edgeFilter;
  }

  /** The JWKS endpoint of the sending side. */
  public static class Jwks {
    /** Whether to serve the public keys at path. */
    private boolean enabled = true;

    /** The path of the JWKS endpoint. */
    private String path = "/.well-known/jwks.json";

    /**
     * How long verifiers may cache the document (Cache-Control max-age), whole seconds up to a
     * day; keep it shorter than the lead between publishing a key and signing with it.
     */
    private Duration maxAge = Duration.ofMinutes(5);

    /** Used by Spring. */
    public Jwks() {}

    /** Whether the endpoint is served. */
    public boolean isEnabled() {
      return enabled;
    }

    /** Sets whether the endpoint is served: {@code false} to serve none. */
    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    /** The endpoint's path: the path. */
    public String getPath() {
      return path;
    }

    /** Sets the endpoint's path: a path starting with /. */
    public void setPath(String path) {
      this.path = path;
    }

    /** The cache lifetime: max-age. */
    public Duration getMaxAge() {
      return maxAge;
    }

    /** Sets the cache lifetime: whole seconds, 0 to a day. */
    public void setMaxAge(Duration maxAge) {
      this.maxAge = maxAge;
    }
  }

  /** The edge filter of the sending side. */
  public static class EdgeFilter {
    /** Whether to register the edge filter (needed to mint from the request's session). */
    private boolean enabled = true;

    /**
     * The edge filter's order; sessionless.filter.order + 5 when not set: after the session
     * filter, before the internal token filter and Spring Security.
     */
    private Integer order;

    /** Used by Spring. */
    public EdgeFilter() {}

    /** Whether the filter is registered. */
    public boolean isEnabled() {
      return enabled;
    }

    /** Sets whether the filter is registered: {@code false} to register none. */
    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    /** The filter's order: the order, or {@code null} for the default. */
    public Integer getOrder() {
      return order;
    }

    /** Sets the filter's order: after the session filter's. */
    public void setOrder(Integer order) {
      this.order = order;
    }
  }
}
