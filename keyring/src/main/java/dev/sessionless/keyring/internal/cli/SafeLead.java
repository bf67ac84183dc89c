package dev.sessionless.keyring.internal.cli;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.keyring.KeyringException;
import dev.sessionless.keyring.internal.HttpSource;
import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

/**
 * The shortest {@code --activate-in} that {@code keyring rotate} accepts without {@code --force}:
 * every node must hold the new key before any node signs with it.
 *
 * <p><b>Nodes that read the file</b> may have checked it just before it changed and see it one
 * refresh interval later: {@code 2 x --refresh-interval + 5 s} (the margin covers clock skew, the
 * node's own decryption and scheduling). <b>Nodes that read the public keys over HTTP</b> (ES256
 * and EdDSA keys, published by {@code JwksServlet} or the Boot starter's JWKS endpoint) hold the
 * old document for up to its {@code Cache-Control: max-age} after the publishing node has read
 * the file: that max-age comes on top (at least 30 s, the keyrings' shortest HTTP refresh).
 * Secret keys are never published, so their lead depends on the file alone.
 */
final class SafeLead {
  /** The refresh interval assumed without {@code --refresh-interval}: the keyring's default file poll. */
  static final Duration DEFAULT_REFRESH_INTERVAL = Duration.ofSeconds(5);
  /** Added to the rest: clock skew between nodes, the node's decryption and scheduling. */
  static final Duration MARGIN = Duration.ofSeconds(5);
  /** The max-age of {@code JwksServlet} and the Boot starter's JWKS endpoint unless configured otherwise. */
  static final Duration DEFAULT_JWKS_MAX_AGE = Duration.ofMinutes(5);
  /** A keyring fetches a JWKS at most this often whatever its max-age (the default {@code httpRefreshBounds} minimum). */
  static final Duration MIN_HTTP_REFRESH = Duration.ofSeconds(30);
  /** How often a keyring fetches a JWKS whose response has no max-age. */
  static final Duration REFRESH_WITHOUT_MAX_AGE = Duration.ofMinutes(5);

  final Duration minimum;
  /** How {@link #minimum} was made up, for the refusal. */
  final String why;

  private SafeLead(Duration minimum, String why) {
    this.minimum = minimum;
    this.why = why;
  }

  /** The shortest lead for nodes that read the file every {@code refresh}. */
  static Duration forFile(Duration refresh) {
    return refresh.multipliedBy(2).plus(MARGIN);
  }

  /**
   * The safe lead for rotating {@code alg} keys, from {@code --refresh-interval} and, for published
   * keys, {@code --jwks-max-age}, the live {@code --jwks-url} (one bounded GET) or the default
   * max-age (said on {@code err}).
   *
   * @throws UsageException for contradictory or invalid options
   * @throws KeyringException {@code UNAVAILABLE} or {@code MALFORMED} if {@code --jwks-url} cannot be read
   */
  static SafeLead of(Options o, Algorithm alg, KeySet keys, Instant now, PrintStream err) {
    Duration refresh = o.duration("--refresh-interval").orElse(DEFAULT_REFRESH_INTERVAL);
    if (refresh.isZero()) {
      throw new UsageException("--refresh-interval must be positive");
    }
    boolean url = o.has("--jwks-url");
    if (url && o.has("--jwks-max-age")) {
      throw new UsageException("give --jwks-url or --jwks-max-age, not both");
    }
    String files = "2 x --refresh-interval " + Durations.show(refresh) + " + " + Durations.show(MARGIN);
    if (alg.isSymmetric()) {
      if (url || o.has("--jwks-max-age")) {
        err.println("keyring: note: " + alg.joseName() + " keys are secret and never published in a JWKS; "
            + "--jwks-url and --jwks-max-age do not apply");
      }
      return new SafeLead(forFile(refresh), files);
    }
    Duration age;
    String from;
    if (url) {
      age = fetchMaxAge(o.require("--jwks-url"), alg, keys, now, err);
      from = "the max-age of --jwks-url, " + Durations.show(age);
    } else if (o.has("--jwks-max-age")) {
      age = o.duration("--jwks-max-age").orElseThrow();
      from = "--jwks-max-age " + Durations.show(age);
    } else {
      age = DEFAULT_JWKS_MAX_AGE;
      from = "the assumed JWKS max-age " + Durations.show(age);
      err.println("keyring: note: " + alg.joseName() + " keys are published: assuming the nodes read them from a "
          + "JWKS served with max-age " + Durations.show(age) + " (the default of JwksServlet and the Boot JWKS endpoint); "
          + "give --jwks-url URL or --jwks-max-age DURATION if yours differs");
    }
    Duration cached = age.compareTo(MIN_HTTP_REFRESH) < 0 ? MIN_HTTP_REFRESH : age;
    return new SafeLead(forFile(refresh).plus(cached), from + " (verifiers may hold the old public keys that long"
        + (cached.equals(age) ? "" : "; at least " + Durations.show(MIN_HTTP_REFRESH) + ", their shortest refresh")
        + ") + " + files);
  }

  /** One GET of the JWKS at {@code uri}, bounded as a keyring's fetch is (15 s, 1 MiB, no redirects). */
  private static HttpSource.Probe probe(URI uri, Instant now) {
    HttpSource source = new HttpSource(uri, new HttpSource.Options());
    try {
      return source.probe(now);
    } catch (KeyringException e) {
      throw new KeyringException(e.reason(), e.getMessage() + "; without it, give --jwks-max-age DURATION");
    } finally {
      source.close();
    }
  }

  /** The max-age the live JWKS answers with (its freshness), or the keyrings' refresh without one. */
  private static Duration fetchMaxAge(String text, Algorithm alg, KeySet keys, Instant now, PrintStream err) {
    URI uri;
    try {
      uri = URI.create(text);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--jwks-url is not a URL: '" + KeyringCli.printable(text) + "'");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("https") || scheme.equals("http")) || uri.getHost() == null) {
      throw new UsageException("--jwks-url must be an http(s) URL with a host");
    }
    HttpSource.Probe probe = probe(uri, now);
    keys.signingKey(alg, now).filter(k -> probe.keys().key(k.kid()).isEmpty()).ifPresent(k -> err.println(
        "keyring: warning: " + HttpSource.redact(uri) + " does not publish " + k.kid() + ", the " + alg.joseName()
            + " key signing now: is it the JWKS of this key file?"));
    if (probe.freshFor().isEmpty()) {
      err.println("keyring: note: " + HttpSource.redact(uri) + " sends no Cache-Control max-age: keyrings fetch "
          + "it every " + Durations.show(REFRESH_WITHOUT_MAX_AGE));
      return REFRESH_WITHOUT_MAX_AGE;
    }
    return probe.freshFor().get();
  }
}
