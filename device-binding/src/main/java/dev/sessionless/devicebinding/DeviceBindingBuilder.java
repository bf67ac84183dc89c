package dev.sessionless.devicebinding;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.RevocationStore;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The settings every DBSC adapter shares (the servlet {@code DeviceBindingFilterBuilder} and the
 * WebFlux {@code DeviceBindingWebFilterBuilder} extend it), with their checks. {@link #keys} and
 * {@link #issuer} are required; every node that may answer a refresh must be built with the same
 * keys and issuer, whichever adapter it runs.
 *
 * @param <B> the adapter's builder, which every setter returns
 */
public abstract class DeviceBindingBuilder<B extends DeviceBindingBuilder<B>> {
  KeySource keys;
  Algorithm algorithm = Algorithm.HS256;
  String issuer;
  String registrationPath = "/.well-known/dbsc/register";
  String refreshPath = "/.well-known/dbsc/refresh";
  Duration boundLifetime = Duration.ofMinutes(10);
  Duration sessionLifetime = Duration.ofDays(14);
  Duration challengeWindow = Duration.ofMinutes(2);
  UnboundPolicy unboundPolicy = UnboundPolicy.ALLOW;
  Duration unboundLifetime = Duration.ofMinutes(15);
  final List<String> requireBound = new ArrayList<>();
  String boundCookieName = "sl_bound";
  String longLivedCookieName = "sl_dbsc";
  String[] proofAlgorithms = {"ES256", "RS256"};
  Clock clock = Clock.systemUTC();
  RevocationStore usedChallenges;

  /** For the adapters' builders. */
  protected DeviceBindingBuilder() {}

  @SuppressWarnings("unchecked")
  private B self() {
    return (B) this;
  }

  /**
   * The application's keys (the same key source as {@code SessionlessFilter}'s, or another):
   * they sign the challenges and the two cookies. Required.
   */
  public B keys(KeySource keys) {
    this.keys = Objects.requireNonNull(keys, "keys");
    return self();
  }

  /**
   * The algorithm of the challenges and of the two cookies; {@code HS256} if not set. The key
   * source must hold a key for it ({@code DIR_A256GCM} works with the session filter's default
   * keys).
   */
  public B algorithm(Algorithm algorithm) {
    this.algorithm = Objects.requireNonNull(algorithm, "algorithm");
    return self();
  }

  /** The {@code iss} of the challenges and cookies, e.g. the application's URL. Required. */
  public B issuer(String issuer) {
    this.issuer = Objects.requireNonNull(issuer, "issuer");
    return self();
  }

  /** The registration endpoint, within the context path; {@code /.well-known/dbsc/register} if not set. */
  public B registrationPath(String path) {
    this.registrationPath = checkPath(path);
    return self();
  }

  /** The refresh endpoint, within the context path; {@code /.well-known/dbsc/refresh} if not set. */
  public B refreshPath(String path) {
    this.refreshPath = checkPath(path);
    return self();
  }

  /**
   * How long a bound cookie works: a copied one works that long at most. 10 minutes if not set;
   * 1 minute to 1 hour. Each refresh costs the browser one signature.
   */
  public B boundLifetime(Duration lifetime) {
    this.boundLifetime = check(lifetime, Duration.ofMinutes(1), Duration.ofHours(1), "the bound cookie's lifetime");
    return self();
  }

  /** How long the long-lived (refresh) token lives; 14 days if not set, 1 hour to 400 days. */
  public B sessionLifetime(Duration lifetime) {
    this.sessionLifetime = check(lifetime, Duration.ofHours(1), Duration.ofDays(400), "the DBSC session's lifetime");
    return self();
  }

  /** How long a challenge is accepted; 2 minutes if not set, 10 seconds to 10 minutes. */
  public B challengeWindow(Duration window) {
    this.challengeWindow = check(window, Duration.ofSeconds(10), Duration.ofMinutes(10), "the challenge window");
    return self();
  }

  /** What happens to logged-in sessions that are not bound to a device; {@link UnboundPolicy#ALLOW} if not set. */
  public B unboundPolicy(UnboundPolicy policy) {
    this.unboundPolicy = Objects.requireNonNull(policy, "policy");
    return self();
  }

  /**
   * How long after login an unbound session works under {@link UnboundPolicy#SHORTER_LIFETIME};
   * 15 minutes if not set, 1 minute to 1 day.
   */
  public B unboundLifetime(Duration lifetime) {
    this.unboundLifetime = check(lifetime, Duration.ofMinutes(1), Duration.ofDays(1), "the unbound lifetime");
    return self();
  }

  /**
   * Routes that need a bound session whatever the policy ({@code 403}, {@code BINDING_REQUIRED}
   * otherwise): a path within the context path, exact, or ending in {@code /**} for everything
   * under it. Adds to those given before.
   */
  public B requireBound(String... patterns) {
    for (String p : patterns) {
      requireBound.add(checkPath(p));
    }
    return self();
  }

  /** The bound cookie's name; {@code sl_bound} if not set. */
  public B boundCookieName(String name) {
    this.boundCookieName = checkName(name);
    return self();
  }

  /** The long-lived cookie's name (sent to the refresh endpoint only); {@code sl_dbsc} if not set. */
  public B longLivedCookieName(String name) {
    this.longLivedCookieName = checkName(name);
    return self();
  }

  /** The device-key algorithms offered, in order of preference: {@code ES256} and/or {@code RS256}; both if not set. */
  public B proofAlgorithms(String first, String... more) {
    String[] all = new String[more.length + 1];
    all[0] = Objects.requireNonNull(first, "first");
    System.arraycopy(more, 0, all, 1, more.length);
    for (String a : all) {
      if (!a.equals("ES256") && !a.equals("RS256")) {
        throw new IllegalArgumentException("DBSC proofs are ES256 or RS256 here; got " + a);
      }
    }
    this.proofAlgorithms = all;
    return self();
  }

  /**
   * Records every used challenge in this store until it expires, so a proof replayed on any node
   * is refused {@code REPLAYED} (see {@link Challenges.Builder#usedChallenges}); give it the session
   * filter's store, shared by the fleet. Not set: the stateless last-refresh rule alone.
   */
  public B usedChallenges(RevocationStore store) {
    this.usedChallenges = Objects.requireNonNull(store, "store");
    return self();
  }

  /** The clock; {@link Clock#systemUTC()} if not set. */
  public B clock(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
    return self();
  }

  /**
   * Checks the settings together and makes the adapter-independent engine the adapter wraps.
   *
   * @param adapter the adapter's class: its name is the logger's
   * @throws IllegalStateException if keys or issuer are missing, or the two paths or cookie names are equal
   */
  protected final DeviceBindingEngine engine(Class<?> adapter) {
    if (keys == null) {
      throw new IllegalStateException("keys are required: the application's key source (the session filter's)");
    }
    if (issuer == null || issuer.isEmpty()) {
      throw new IllegalStateException("issuer is required: e.g. the application's URL");
    }
    if (registrationPath.equals(refreshPath)) {
      throw new IllegalStateException("the registration and refresh paths must differ");
    }
    if (boundCookieName.equals(longLivedCookieName)) {
      throw new IllegalStateException("the bound and long-lived cookies need different names");
    }
    return new DeviceBindingEngine(this, adapter);
  }

  private static String checkPath(String path) {
    Objects.requireNonNull(path, "path");
    if (!path.startsWith("/") || path.length() > 256 || !path.chars().allMatch(c -> c > 0x20 && c < 0x7f && c != '"'
        && c != ';' && c != ',' && c != '\\')) {
      throw new IllegalArgumentException("a path must start with '/' and hold printable ASCII only, no quotes,"
          + " commas or semicolons; got " + path);
    }
    return path;
  }

  private static String checkName(String name) {
    Objects.requireNonNull(name, "name");
    if (!name.matches("[A-Za-z0-9_.-]{1,64}")) {
      throw new IllegalArgumentException("a cookie name is 1 to 64 letters, digits, '_', '.' or '-'; got " + name);
    }
    return name;
  }

  private static Duration check(Duration d, Duration min, Duration max, String what) {
    Objects.requireNonNull(d, what);
    if (d.getNano() != 0 || d.compareTo(min) < 0 || d.compareTo(max) > 0) {
      throw new IllegalArgumentException(what + " must be whole seconds, " + min + " to " + max + "; got " + d);
    }
    return d;
  }
}
