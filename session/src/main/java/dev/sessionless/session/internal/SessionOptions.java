package dev.sessionless.session.internal;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Compression;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.RevocationSource;
import dev.sessionless.core.SessionlessListener;
import dev.sessionless.core.StateMapper;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * An adapter's session options as the application set them, unchecked: {@code null} (or {@code
 * false}) where it set nothing, so that {@link SettingsRules#of} applies the one default. Each
 * field means what the builder option of the same name means (the servlet filter's {@code
 * SessionlessFilterBuilder}); a plain holder, filled by the adapter's builder and read once.
 */
public final class SessionOptions {
  /** The keys (required). */
  public KeySource keys;
  /** The token algorithm; {@code null}: {@code dir} with A256GCM. */
  public Algorithm algorithm;
  /** The {@code iss} claim. */
  public String issuer;
  /** The {@code aud} claim. */
  public String audience;
  /** The clock; {@code null}: the system clock. */
  public Clock clock;
  /** How attributes become JSON; {@code null}: {@code StateMapper.defaults()}. */
  public StateMapper mapper;
  /** The application's attribute classes besides the JDK value types. */
  public final Set<Class<?>> types = new LinkedHashSet<>();
  /** The sliding expiry; {@code null}: 30 minutes. */
  public Duration maxInactive;
  /** The absolute lifetime; {@code null}: 12 hours. */
  public Duration absoluteLifetime;
  /** Renew a read-only request's token past this fraction of its life; {@code null}: 0.5. */
  public Double renewalFraction;
  /** The cookie name; {@code null}: {@code SESSIONLESS}. */
  public String cookieName;
  /** The cookie path; {@code null}: the context path. */
  public String cookiePath;
  /** The cookie domain; {@code null}: none. */
  public String cookieDomain;
  /** The cookie's {@code Max-Age}; {@code null}: a browser-session cookie. */
  public Duration cookieMaxAge;
  /** {@code Lax}, {@code Strict} or {@code None}; {@code null}: {@code Lax}. */
  public String sameSite;
  /** How many cookies a token may take; {@code null}: one. */
  public Integer maxChunks;
  /** The state budget in bytes; {@code null}: what the carrier can take. */
  public Integer maxStateBytes;
  /** A header to carry the token instead of cookies, or {@code null}. */
  public String header;
  /** A stored attribute that no longer reads back starts a fresh session (else it is dropped). */
  public boolean newSessionOnBadAttribute;
  /** {@code false}: {@code Secure} only on requests seen as secure; {@code null}: always. */
  public Boolean cookieSecure;
  /** Token compression; {@code null}: {@code DEF} with the default algorithm, else none. */
  public Compression compress;
  /** Whether compressed signed tokens are accepted; {@code null}: the codec's default. */
  public Boolean acceptCompressedSigned;
  /** The revocation source (a {@code RevocationStore} also records logouts), or {@code null}. */
  public RevocationSource revocation;
  /** Told of tokens, cookies and refusals. */
  public SessionlessListener listener = SessionlessListener.NONE;

  // How the checks speak: the defaults are the servlet filter's words.
  /**
   * Where the checks log (a signing algorithm at INFO, {@code cookieSecure(false)} at WARNING)
   * and, at run time, the engine's {@link FilterLog} (rejections, failures); {@code null}: the
   * servlet filter's logger.
   */
  public System.Logger log;
  /** Whether messages also name the servlet filter's {@code web.xml} init parameter of an option. */
  public boolean initParameters = true;
  /** What to do behind a TLS-terminating proxy so that requests are seen as secure. */
  public String behindProxy = "make the container trust X-Forwarded-Proto";

  System.Logger log() {
    return log != null ? log : System.getLogger(FilterLog.LOGGER);
  }
}
