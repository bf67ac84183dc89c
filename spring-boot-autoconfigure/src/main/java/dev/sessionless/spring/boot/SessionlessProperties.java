package dev.sessionless.spring.boot;

import dev.sessionless.core.Compression;
import dev.sessionless.servlet.SessionlessFilter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * The {@code sessionless.*} properties: where the keys come from, what the tokens say, and how
 * they travel. Only the keys are required; everything else has a default.
 *
 * <p>Boot's own {@code server.servlet.session.timeout} and {@code
 * server.servlet.session.cookie.*} apply where these are not set (see the module README);
 * a {@code sessionless.*} value always wins.
 *
 * <p>The larger groups are classes of their own: {@link KeysProperties} ({@code
 * sessionless.keys.*}), {@link CookieProperties} ({@code sessionless.cookie.*}) and {@link
 * RevocationProperties} ({@code sessionless.revocation.*}).
 *
 * <p>Security: no property holds a secret, only the names of the variables and files that do,
 * so configuration files and the environment endpoint never show key material.
 */
@ConfigurationProperties("sessionless")
public class SessionlessProperties {
  /** Whether to replace HttpSession with token sessions at all. */
  private boolean enabled = true;

  /** Where the signing and verification keys come from. At least one source is required. */
  @NestedConfigurationProperty
  private final KeysProperties keys = new KeysProperties();

  /**
   * The token algorithm: DIR_A256GCM (encrypted tokens, compressed with zip DEF unless
   * compression says otherwise; the keys need an A256GCM key, which keyring init makes), or
   * HS256, HS384, HS512, ES256 or EdDSA for tokens that are signed but readable by anyone
   * holding a copy of the cookie.
   */
  private String algorithm = "DIR_A256GCM";

  /**
   * The issuer (iss) written into and required of every token; spring.application.name when
   * not set (else "application"), so that two applications sharing a key file do not accept
   * each other's sessions.
   */
  private String issuer;

  /**
   * The audience (aud) written into and required of every token; the application name
   * (spring.application.name) when not set, else "application". Give apps sharing keys
   * different audiences.
   */
  private String audience;

  /**
   * How far each write moves a session's expiry (the max-inactive interval); falls back to
   * server.servlet.session.timeout, then 30 minutes.
   */
  private Duration timeout;

  /** The longest a session may live from its creation, however active. */
  private Duration absoluteLifetime = Duration.ofHours(12);

  /**
   * The fraction of a token's lifetime that must pass before a read-only request renews it;
   * greater than 0, at most 1.
   */
  private double renewalFraction = 0.5;

  /** The cookie that carries the token (unless a header is configured). */
  @NestedConfigurationProperty
  private final CookieProperties cookie = new CookieProperties();

  /**
   * DEFLATE the token's payload ("zip":"DEF"): shorter cookies for larger sessions, for some CPU
   * on every write. If not set: on with DIR_A256GCM (the default algorithm), off with a signing
   * one. The same as compression=DEFLATE.
   */
  private Boolean compress;

  /**
   * How to compress the token's payload, instead of compress: NONE, DEFLATE ("zip":"DEF", what
   * DIR_A256GCM uses if neither is set) or DEFLATE_WITH_DICTIONARY ("zip":"SLD1", the shortest
   * cookies, read only by Sessionless). Set
   * compress or this, not both. An encrypted (DIR_A256GCM) token of every kind is read whatever
   * this says. A compressed signed token (HS256 and the others) is an extension that other JOSE
   * libraries do not read, and that a Sessionless node reads only with
   * accept-compressed-signed-tokens (which this implies): set that on every node first.
   */
  private Compression compression;

  /**
   * Read signed tokens compressed with compression (a JWS with "zip"). Off if not set, and on
   * when this node writes them.
   */
  private Boolean acceptCompressedSignedTokens;

  /**
   * Carry the token in this request and response header instead of cookies (for APIs). Cookie
   * settings must then be left unset.
   */
  private String header;

  /**
   * Application classes allowed as session attribute values (exactly these classes), besides
   * JDK value types (String, boxed numbers, Boolean, BigInteger, BigDecimal, and lists and
   * string-keyed maps of those).
   */
  private List<Class<?>> attributeTypes = new ArrayList<>();

  /**
   * What to do with a stored attribute that no longer reads back as its recorded class (renamed
   * or no longer registered between deploys): DROP leaves that attribute out, NEW_SESSION starts
   * a fresh session. Either way the request goes on.
   */
  private SessionlessFilter.BadAttribute onBadAttribute = SessionlessFilter.BadAttribute.DROP;

  /** The servlet filter registration. */
  private final Filter filter = new Filter();

  /** The Spring Security integration. */
  private final Security security = new Security();

  /** Revocation: logout that holds (a copied cookie stops working) and "log out everywhere". */
  @NestedConfigurationProperty
  private final RevocationProperties revocation = new RevocationProperties();

  /** Used by Spring. */
  public SessionlessProperties() {}

  /** Whether token sessions replace HttpSession ({@code true} by default). */
  public boolean isEnabled() {
    return enabled;
  }

  /** Sets whether token sessions replace HttpSession: {@code false} turns the session part off. */
  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  /** The key sources ({@code sessionless.keys.*}). */
  public KeysProperties getKeys() {
    return keys;
  }

  /** The token algorithm's JOSE name, DIR_A256GCM by default. */
  public String getAlgorithm() {
    return algorithm;
  }

  /** Sets the token algorithm: DIR_A256GCM, HS256, HS384, HS512, ES256 or EdDSA. */
  public void setAlgorithm(String algorithm) {
    this.algorithm = algorithm;
  }

  /** The issuer set, or {@code null} for the default (spring.application.name, else "application"). */
  public String getIssuer() {
    return issuer;
  }

  /** Sets the issuer. */
  public void setIssuer(String issuer) {
    this.issuer = issuer;
  }

  /** The audience set, or {@code null} for the default (spring.application.name, else "application"). */
  public String getAudience() {
    return audience;
  }

  /** Sets the audience. */
  public void setAudience(String audience) {
    this.audience = audience;
  }

  /** The idle timeout set, or {@code null} for server.servlet.session.timeout, then 30 minutes. */
  public Duration getTimeout() {
    return timeout;
  }

  /** Sets how far each write moves a session's expiry. */
  public void setTimeout(Duration timeout) {
    this.timeout = timeout;
  }

  /** The longest a session may live from its creation (12 hours by default). */
  public Duration getAbsoluteLifetime() {
    return absoluteLifetime;
  }

  /** Sets the longest a session may live from its creation. */
  public void setAbsoluteLifetime(Duration absoluteLifetime) {
    this.absoluteLifetime = absoluteLifetime;
  }

  /** The fraction of a token's lifetime after which a read-only request renews it (0.5 by default). */
  public double getRenewalFraction() {
    return renewalFraction;
  }

  /** Sets the renewal fraction: greater than 0, at most 1. */
  public void setRenewalFraction(double renewalFraction) {
    this.renewalFraction = renewalFraction;
  }

  /** The session cookie ({@code sessionless.cookie.*}). */
  public CookieProperties getCookie() {
    return cookie;
  }

  /**
   * Whether the token's payload is DEFLATE-compressed.
   *
   * @return the setting, or {@code null} if not set (zip DEF with DIR_A256GCM, off with a signing algorithm)
   */
  public Boolean getCompress() {
    return compress;
  }

  /**
   * Sets whether the token's payload is DEFLATE-compressed.
   *
   * @param compress {@code true} to compress
   */
  public void setCompress(Boolean compress) {
    this.compress = compress;
  }

  /**
   * How the token's payload is compressed.
   *
   * @return the setting, or {@code null} if not set (see {@link #getCompress()})
   */
  public Compression getCompression() {
    return compression;
  }

  /**
   * Sets how the token's payload is compressed before encryption.
   *
   * @param compression the kind (not together with {@code compress})
   */
  public void setCompression(Compression compression) {
    this.compression = compression;
  }

  /**
   * Whether signed tokens with {@code zip} are read.
   *
   * @return the setting, or {@code null} if not set (off, unless this node writes them)
   */
  public Boolean getAcceptCompressedSignedTokens() {
    return acceptCompressedSignedTokens;
  }

  /**
   * Sets whether signed tokens with {@code zip} are read.
   *
   * @param accept {@code true} to read them (set on every node before any node writes them)
   */
  public void setAcceptCompressedSignedTokens(Boolean accept) {
    this.acceptCompressedSignedTokens = accept;
  }

  /** The header carrying the token, or {@code null} for cookies. */
  public String getHeader() {
    return header;
  }

  /** Sets the header carrying the token instead of cookies. */
  public void setHeader(String header) {
    this.header = header;
  }

  /** The application classes allowed as attribute values (a live, modifiable list). */
  public List<Class<?>> getAttributeTypes() {
    return attributeTypes;
  }

  /** Sets the application classes allowed as attribute values. */
  public void setAttributeTypes(List<Class<?>> attributeTypes) {
    this.attributeTypes = attributeTypes;
  }

  /** What happens to an attribute that no longer reads back (DROP by default). */
  public SessionlessFilter.BadAttribute getOnBadAttribute() {
    return onBadAttribute;
  }

  /** Sets what happens to an attribute that no longer reads back: DROP or NEW_SESSION. */
  public void setOnBadAttribute(SessionlessFilter.BadAttribute onBadAttribute) {
    this.onBadAttribute = onBadAttribute;
  }

  /** The filter registration ({@code sessionless.filter.*}). */
  public Filter getFilter() {
    return filter;
  }

  /** The Spring Security integration ({@code sessionless.security.*}). */
  public Security getSecurity() {
    return security;
  }

  /** Revocation ({@code sessionless.revocation.*}). */
  public RevocationProperties getRevocation() {
    return revocation;
  }

  /** The filter registration. */
  public static class Filter {
    /**
     * The filter's order: Spring Session's (Integer.MIN_VALUE + 50) by default, well before
     * Spring Security's filter chain (-100).
     */
    private int order = Integer.MIN_VALUE + 50;

    /** Used by Spring. */
    public Filter() {}

    /** The filter's order. */
    public int getOrder() {
      return order;
    }

    /** Sets the filter's order; keep it before Spring Security's filter chain (-100). */
    public void setOrder(int order) {
      this.order = order;
    }
  }

  /** Spring Security integration. */
  public static class Security {
    /**
     * Whether Spring Security keeps its security context, CSRF token and saved request in the
     * token session as plain values (required for Spring Security to work with token sessions).
     */
    private boolean enabled = true;

    /** Used by Spring. */
    public Security() {}

    /** Whether the Spring Security repositories are installed ({@code true} by default). */
    public boolean isEnabled() {
      return enabled;
    }

    /** Sets whether the Spring Security repositories are installed. */
    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }
  }
}
