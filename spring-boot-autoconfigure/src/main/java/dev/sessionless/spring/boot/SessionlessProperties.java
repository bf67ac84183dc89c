package dev.sessionless.spring.boot;

import dev.sessionless.servlet.SessionlessFilter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code sessionless.*} properties: where the keys come from, what the tokens say, and how
 * they travel. Only the keys are required; everything else has a default.
 *
 * <p>Boot's own {@code server.servlet.session.timeout} and {@code
 * server.servlet.session.cookie.*} apply where these are not set (see the module README);
 * a {@code sessionless.*} value always wins.
 *
 * <p>Security: no property holds a secret, only the names of the variables and files that do,
 * so configuration files and the environment endpoint never show key material.
 */
@ConfigurationProperties("sessionless")
public class SessionlessProperties {
  /** Whether to replace HttpSession with token sessions at all. */
  private boolean enabled = true;

  /** Where the signing and verification keys come from. At least one source is required. */
  private final Keys keys = new Keys();

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
  private final Cookie cookie = new Cookie();

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
  private dev.sessionless.core.Compression compression;

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
  public dev.sessionless.core.Compression getCompression() {
    return compression;
  }

  /**
   * Sets how the token's payload is compressed before encryption.
   *
   * @param compression the kind (not together with {@code compress})
   */
  public void setCompression(dev.sessionless.core.Compression compression) {
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

  /** The Spring Security integration. */
  private final Security security = new Security();

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public Keys getKeys() {
    return keys;
  }

  public String getAlgorithm() {
    return algorithm;
  }

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

  public String getAudience() {
    return audience;
  }

  public void setAudience(String audience) {
    this.audience = audience;
  }

  public Duration getTimeout() {
    return timeout;
  }

  public void setTimeout(Duration timeout) {
    this.timeout = timeout;
  }

  public Duration getAbsoluteLifetime() {
    return absoluteLifetime;
  }

  public void setAbsoluteLifetime(Duration absoluteLifetime) {
    this.absoluteLifetime = absoluteLifetime;
  }

  public double getRenewalFraction() {
    return renewalFraction;
  }

  public void setRenewalFraction(double renewalFraction) {
    this.renewalFraction = renewalFraction;
  }

  public Cookie getCookie() {
    return cookie;
  }

  public String getHeader() {
    return header;
  }

  public void setHeader(String header) {
    this.header = header;
  }

  public List<Class<?>> getAttributeTypes() {
    return attributeTypes;
  }

  public void setAttributeTypes(List<Class<?>> attributeTypes) {
    this.attributeTypes = attributeTypes;
  }

  public SessionlessFilter.BadAttribute getOnBadAttribute() {
    return onBadAttribute;
  }

  public void setOnBadAttribute(SessionlessFilter.BadAttribute onBadAttribute) {
    this.onBadAttribute = onBadAttribute;
  }

  public Filter getFilter() {
    return filter;
  }

  public Security getSecurity() {
    return security;
  }

  /** Revocation: logout that holds (a copied cookie stops working) and "log out everywhere". */
  private final Revocation revocation = new Revocation();

  public Revocation getRevocation() {
    return revocation;
  }

  /** Key sources; several may be combined (their union is used, the first listed here wins a kid). */
  public static class Keys {
    /** A JWKS file with the signing keys, re-read when it changes (key rotation, a Kubernetes Secret). */
    private Path file;

    /** How often the key files are checked for changes. */
    private Duration filePollInterval = Duration.ofSeconds(5);

    /** A JWKS file encrypted with the keyring tool (a compact JWE), re-read when it changes. */
    private final EncryptedFile encryptedFile = new EncryptedFile();

    /**
     * The name of an environment variable holding a JWKS or one base64url secret of 32 or more
     * bytes (an HS256 key), read once at startup.
     */
    private String environment;

    /**
     * The name of an environment variable holding the password of an encrypted JWKS in the
     * variable named by sessionless.keys.environment.
     */
    private String environmentPasswordVariable;

    /**
     * An HTTP(S) JWKS URL with further verification keys (usually another service's public
     * keys); never supplies the signing key.
     */
    private URI jwksUrl;

    /**
     * Development only: sign with a random in-memory key, logged loudly. Tokens then survive
     * neither a restart nor a second instance. Refused beside any other key source.
     */
    private boolean ephemeral;

    public Path getFile() {
      return file;
    }

    public void setFile(Path file) {
      this.file = file;
    }

    public Duration getFilePollInterval() {
      return filePollInterval;
    }

    public void setFilePollInterval(Duration filePollInterval) {
      this.filePollInterval = filePollInterval;
    }

    public EncryptedFile getEncryptedFile() {
      return encryptedFile;
    }

    public String getEnvironment() {
      return environment;
    }

    public void setEnvironment(String environment) {
      this.environment = environment;
    }

    public String getEnvironmentPasswordVariable() {
      return environmentPasswordVariable;
    }

    public void setEnvironmentPasswordVariable(String environmentPasswordVariable) {
      this.environmentPasswordVariable = environmentPasswordVariable;
    }

    public URI getJwksUrl() {
      return jwksUrl;
    }

    public void setJwksUrl(URI jwksUrl) {
      this.jwksUrl = jwksUrl;
    }

    public boolean isEphemeral() {
      return ephemeral;
    }

    public void setEphemeral(boolean ephemeral) {
      this.ephemeral = ephemeral;
    }
  }

  /**
   * An encrypted JWKS file and where its secret comes from: exactly one of a password or a
   * key-encryption key, each from an environment variable or a file (never from the property
   * itself, so the secret stays out of configuration files).
   */
  public static class EncryptedFile {
    /** The encrypted JWKS file. */
    private Path path;

    /** The name of an environment variable holding the file's password. */
    private String passwordVariable;

    /** A file holding the password (trailing line breaks ignored), e.g. a mounted secret. */
    private Path passwordFile;

    /** The name of an environment variable holding a base64url key-encryption key (A256KW). */
    private String kekVariable;

    /** A file holding a base64url key-encryption key (A256KW). */
    private Path kekFile;

    public Path getPath() {
      return path;
    }

    public void setPath(Path path) {
      this.path = path;
    }

    public String getPasswordVariable() {
      return passwordVariable;
    }

    public void setPasswordVariable(String passwordVariable) {
      this.passwordVariable = passwordVariable;
    }

    public Path getPasswordFile() {
      return passwordFile;
    }

    public void setPasswordFile(Path passwordFile) {
      this.passwordFile = passwordFile;
    }

    public String getKekVariable() {
      return kekVariable;
    }

    public void setKekVariable(String kekVariable) {
      this.kekVariable = kekVariable;
    }

    public Path getKekFile() {
      return kekFile;
    }

    public void setKekFile(Path kekFile) {
      this.kekFile = kekFile;
    }
  }

  /** The session cookie; server.servlet.session.cookie.* applies where these are unset. */
  public static class Cookie {
    /** The cookie name; chunks of a split token are NAME.1, NAME.2, ... Default SESSIONLESS. */
    private String name;

    /** The cookie domain; host-only when unset. */
    private String domain;

    /** The cookie path; the context path when unset. */
    private String path;

    /** The cookie's SameSite attribute: Lax (default), Strict or None. */
    private String sameSite;

    /** The cookie's Max-Age; a browser-session cookie when unset. */
    private Duration maxAge;

    /** How many cookies a token may be split across, 1 to 16 (default 4). */
    private Integer maxChunks;

    /**
     * Whether cookies carry Secure: true always; false only on requests the container sees as
     * secure. Unset: always, except plain http to a loopback host. A __Host- or __Secure- name,
     * or SameSite=None, means always.
     */
    private Boolean secure;

    public Boolean getSecure() {
      return secure;
    }

    public void setSecure(Boolean secure) {
      this.secure = secure;
    }

    public String getName() {
      return name;
    }

    public void setName(String name) {
      this.name = name;
    }

    public String getDomain() {
      return domain;
    }

    public void setDomain(String domain) {
      this.domain = domain;
    }

    public String getPath() {
      return path;
    }

    public void setPath(String path) {
      this.path = path;
    }

    public String getSameSite() {
      return sameSite;
    }

    public void setSameSite(String sameSite) {
      this.sameSite = sameSite;
    }

    public Duration getMaxAge() {
      return maxAge;
    }

    public void setMaxAge(Duration maxAge) {
      this.maxAge = maxAge;
    }

    public Integer getMaxChunks() {
      return maxChunks;
    }

    public void setMaxChunks(Integer maxChunks) {
      this.maxChunks = maxChunks;
    }
  }

  /** The filter registration. */
  public static class Filter {
    /**
     * The filter's order: Spring Session's (Integer.MIN_VALUE + 50) by default, well before
     * Spring Security's filter chain (-100).
     */
    private int order = Integer.MIN_VALUE + 50;

    public int getOrder() {
      return order;
    }

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

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }
  }

  /**
   * Where revoked sessions and subjects logged out everywhere are kept, checked on every
   * request from a local copy.
   */
  public static class Revocation {
    /** The kinds of revocation source. */
    public enum Type {
      /** No revocation: a token is valid until it expires, even after logout. */
      NONE,
      /** In this instance's memory: a single instance (other instances never hear of it). */
      MEMORY,
      /** Shared by every instance through Redis (needs sessionless-redis). */
      REDIS,
      /** A signed list read from a file or URL (read-only here; keyring revocations publish). */
      PUBLISHED
    }

    /**
     * NONE (a token is valid until it expires, even after logout), MEMORY (this instance only),
     * REDIS (every instance, sessionless-redis) or PUBLISHED (a signed list, read-only).
     */
    private Type type = Type.NONE;

    /** The Redis store (type REDIS). */
    private final Redis redis = new Redis();

    /** The published list (type PUBLISHED). */
    private final Published published = new Published();

    public Type getType() {
      return type;
    }

    public void setType(Type type) {
      this.type = type;
    }

    public Redis getRedis() {
      return redis;
    }

    public Published getPublished() {
      return published;
    }
  }

  /** Revocations shared through Redis. */
  public static class Redis {
    /** What a node does once it could not read Redis for longer than the stale bound. */
    public enum OnStale {
      /** Keep answering from the last copy. */
      FAIL_OPEN,
      /** Fail every check with REVOCATION_UNAVAILABLE (a server error) until Redis is read. */
      FAIL_CLOSED
    }

    /** The Redis server, redis://host:6379 or rediss://user:password@host:6380/0. Required for REDIS. */
    private String url;

    /** The prefix of every key and of the publish/subscribe channel. */
    private String keyPrefix = "sessionless:revocation:";

    /** How often each instance reads the whole list: the lag bound when publish/subscribe is down. */
    private Duration pollInterval = Duration.ofSeconds(30);

    /** How long without a successful read from Redis before the copy is stale; longer than the poll interval. */
    private Duration staleBound = Duration.ofMinutes(5);

    /** FAIL_OPEN (keep answering from the last copy) or FAIL_CLOSED (refuse) once the copy is stale. */
    private OnStale onStale = OnStale.FAIL_OPEN;

    public String getUrl() {
      return url;
    }

    public void setUrl(String url) {
      this.url = url;
    }

    public String getKeyPrefix() {
      return keyPrefix;
    }

    public void setKeyPrefix(String keyPrefix) {
      this.keyPrefix = keyPrefix;
    }

    public Duration getPollInterval() {
      return pollInterval;
    }

    public void setPollInterval(Duration pollInterval) {
      this.pollInterval = pollInterval;
    }

    public Duration getStaleBound() {
      return staleBound;
    }

    public void setStaleBound(Duration staleBound) {
      this.staleBound = staleBound;
    }

    public OnStale getOnStale() {
      return onStale;
    }

    public void setOnStale(OnStale onStale) {
      this.onStale = onStale;
    }
  }

  /** A signed revocation list, published as a file or at a URL (made by keyring revocations publish). */
  public static class Published {
    /** The list's file. One of file and url is required for PUBLISHED. */
    private Path file;

    /** The list's HTTPS URL (plain http only to a loopback host). One of file and url is required. */
    private URI url;

    /**
     * A JWKS file with the publisher's verification key(s); the session keys
     * (sessionless.keys.*) when not set.
     */
    private Path keysFile;

    /** The issuer the list must carry; sessionless.issuer when not set. */
    private String issuer;

    /** The audience the list must carry; the session audience when not set. */
    private String audience;

    /** How often to read the list: the revocation lag bound. */
    private Duration pollInterval = Duration.ofSeconds(30);

    /**
     * FAIL_OPEN (keep answering from the last list) or FAIL_CLOSED (refuse) once the list has
     * expired and no newer one could be read.
     */
    private Redis.OnStale onStale = Redis.OnStale.FAIL_OPEN;

    public Path getFile() {
      return file;
    }

    public void setFile(Path file) {
      this.file = file;
    }

    public URI getUrl() {
      return url;
    }

    public void setUrl(URI url) {
      this.url = url;
    }

    public Path getKeysFile() {
      return keysFile;
    }

    public void setKeysFile(Path keysFile) {
      this.keysFile = keysFile;
    }

    public String getIssuer() {
      return issuer;
    }

    public void setIssuer(String issuer) {
      this.issuer = issuer;
    }

    public String getAudience() {
      return audience;
    }

    public void setAudience(String audience) {
      this.audience = audience;
    }

    public Duration getPollInterval() {
      return pollInterval;
    }

    public void setPollInterval(Duration pollInterval) {
      this.pollInterval = pollInterval;
    }

    public Redis.OnStale getOnStale() {
      return onStale;
    }

    public void setOnStale(Redis.OnStale onStale) {
      this.onStale = onStale;
    }
  }
}
