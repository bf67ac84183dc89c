package dev.sessionless.spring.boot;

import java.time.Duration;

/**
 * The {@code sessionless.cookie.*} properties: the session cookie;
 * server.servlet.session.cookie.* applies where these are unset.
 */
public class CookieProperties {
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

  /** How many cookies a token may be split across, 1 to 16 (default 1: not split). */
  private Integer maxChunks;

  /**
   * Whether cookies carry Secure: true always; false only on requests the container sees as
   * secure. Unset: always, except plain http to a loopback host. A __Host- or __Secure- name,
   * or SameSite=None, means always.
   */
  private Boolean secure;

  /** Used by Spring. */
  public CookieProperties() {}

  /** The Secure setting, or {@code null} for the default (always, except plain http to loopback). */
  public Boolean getSecure() {
    return secure;
  }

  /** Sets whether cookies carry Secure. */
  public void setSecure(Boolean secure) {
    this.secure = secure;
  }

  /** The cookie name, or {@code null} for the default. */
  public String getName() {
    return name;
  }

  /** Sets the cookie name. */
  public void setName(String name) {
    this.name = name;
  }

  /** The cookie domain, or {@code null} for host-only. */
  public String getDomain() {
    return domain;
  }

  /** Sets the cookie domain. */
  public void setDomain(String domain) {
    this.domain = domain;
  }

  /** The cookie path, or {@code null} for the context path. */
  public String getPath() {
    return path;
  }

  /** Sets the cookie path. */
  public void setPath(String path) {
    this.path = path;
  }

  /** The SameSite attribute, or {@code null} for the default (Lax). */
  public String getSameSite() {
    return sameSite;
  }

  /** Sets the SameSite attribute: Lax, Strict or None. */
  public void setSameSite(String sameSite) {
    this.sameSite = sameSite;
  }

  /** The cookie's Max-Age, or {@code null} for a browser-session cookie. */
  public Duration getMaxAge() {
    return maxAge;
  }

  /** Sets the cookie's Max-Age. */
  public void setMaxAge(Duration maxAge) {
    this.maxAge = maxAge;
  }

  /** The most cookies a token may be split across, or {@code null} for the default (1). */
  public Integer getMaxChunks() {
    return maxChunks;
  }

  /** Sets the most cookies a token may be split across: 1 to 16. */
  public void setMaxChunks(Integer maxChunks) {
    this.maxChunks = maxChunks;
  }
}
