package dev.sessionless.spring.boot;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code sessionless.propagation.*} properties: internal tokens received from an edge
 * ({@code receive}, on when {@code sessionless.propagation.receive.audience} is set) and sent to
 * internal services ({@code send}, on when {@code sessionless.propagation.send.issuer} is set).
 * Both are independent of the session part ({@code sessionless.enabled}), so a service that only
 * receives runs with {@code sessionless.enabled=false} and no session keys.
 *
 * <p>Security: no property holds a secret; the signing keys are read from the file named by
 * {@code sessionless.propagation.send.keys-file}.
 */
@ConfigurationProperties("sessionless.propagation")
public class SessionlessPropagationProperties {
  /** The receiving side: verifying the internal tokens callers present. */
  private final Receive receive = new Receive();

  /** The sending side: minting internal tokens for the calls this service makes. */
  private final Send send = new Send();

  /** Used by Spring. */
  public SessionlessPropagationProperties() {}

  /** The receiving side. */
  public Receive getReceive() {
    return receive;
  }

  /** The sending side. */
  public Send getSend() {
    return send;
  }

  /** Verifying internal tokens: on when {@code audience} is set. */
  public static class Receive {
    /**
     * This service's own name, the aud every internal token it accepts must carry. Setting it
     * turns the receiving side on (the verifier and the filter).
     */
    private String audience;

    /**
     * The issuers this service accepts, each with its issuer (iss) and the HTTPS URL of its
     * JWKS; at least one.
     */
    private List<Issuer> issuers = new ArrayList<>();

    /** The request header carrying "Bearer TOKEN". */
    private String header = "Authorization";

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
    public Receive() {}

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

    /** The header carrying the token. */
    public String getHeader() {
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

  /** Minting internal tokens: on when {@code issuer} is set. */
  public static class Send {
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

    /** The request header outgoing tokens travel in, as "Bearer TOKEN". */
    private String header = "Authorization";

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
    public Send() {}

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

    /** The outgoing header. */
    public String getHeader() {
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
