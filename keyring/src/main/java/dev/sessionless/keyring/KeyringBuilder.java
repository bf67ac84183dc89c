package dev.sessionless.keyring;

import dev.sessionless.core.KeySet;
import dev.sessionless.core.SessionlessListener;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.internal.BuilderChecks;
import dev.sessionless.keyring.internal.FileSource;
import dev.sessionless.keyring.internal.FixedSource;
import dev.sessionless.keyring.internal.HttpSource;
import dev.sessionless.keyring.internal.KeyContent;
import dev.sessionless.keyring.internal.RefreshScheduler;
import dev.sessionless.keyring.internal.Source;
import dev.sessionless.keyring.internal.ThreadScheduler;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

// Over 400 lines because each option's Javadoc is the reference for that option (defaults,
// bounds, security notes); the code itself is setters and one build() that checks them.
/**
 * Configures a {@link Keyring}. Sources are consulted in the order added (the first wins a kid
 * conflict); at least one is required. Options other than sources may be set once; everything
 * is checked by {@link #build()}. Not thread-safe.
 */
public final class KeyringBuilder {
  /** How to make each source at build(), when every option is known; fresh sources per build. */
  private final List<SourceSpec> sources = new ArrayList<>();
  final HttpSource.Options http = new HttpSource.Options();
  private final Set<String> set = new HashSet<>();
  Clock clock = Clock.systemUTC();
  Duration filePoll = Duration.ofSeconds(5);
  Duration unknownKeyInterval = Duration.ofSeconds(30);
  Function<String, String> environment = System::getenv;
  Supplier<RefreshScheduler> scheduler = ThreadScheduler::new;
  private boolean ephemeral;
  private boolean anyHttp;
  private boolean allowPlainHttp;
  SessionlessListener listener = SessionlessListener.NONE;
  Duration maxTokenLifetime = TokenCodec.MAX_TIME_TO_LIVE;
  Duration trafficWindow = Duration.ofHours(1);
  long encryptionBudget = DEFAULT_ENCRYPTION_BUDGET;

  /** {@link #encryptionBudgetPerKey(long)}'s default: 2^28, so 16 nodes' budgets together stay within 2^32. */
  static final long DEFAULT_ENCRYPTION_BUDGET = 1L << 28;

  KeyringBuilder() {}

  private KeyringBuilder add(Function<KeyringBuilder, Source> make, String what) {
    sources.add(new SourceSpec(make, what, null));
    return this;
  }

  private SourceSpec last(String option) {
    if (sources.isEmpty()) {
      throw new IllegalStateException(option + " applies to the source added just before it; add a source first");
    }
    return sources.get(sources.size() - 1);
  }

  private void once(String option) {
    BuilderChecks.once(set, option);
  }

  /** A fixed key set, e.g. keys made in code or read elsewhere. */
  public KeyringBuilder keys(KeySet keys) {
    Objects.requireNonNull(keys, "keys");
    return add(b -> new FixedSource("key set given in code", () -> keys), "keys(...)");
  }

  /**
   * A JWKS file, reloaded when it changes (checked every {@link #filePollInterval(Duration)},
   * following symbolic links so a Kubernetes Secret volume's atomic swap is seen). A file that
   * is missing, unreadable or not a valid non-empty JWKS at a check keeps the last good keys. An
   * encrypted file needs {@link #encryptedJwksFile(Path, char[])} or {@link
   * #encryptedJwksFile(Path, byte[])}.
   */
  public KeyringBuilder jwksFile(Path file) {
    Objects.requireNonNull(file, "file");
    return add(b -> new FileSource(file, KeyContent.Unlock.none(), b.filePoll), "jwksFile(" + file + ")");
  }

  /**
   * A JWKS file encrypted with {@link EncryptedJwks} under a password (copied; clear yours),
   * reloaded like {@link #jwksFile(Path)}. A plain JWKS in its place is refused ({@code
   * MALFORMED}): whoever can write the file but lacks the password cannot slip in keys.
   */
  public KeyringBuilder encryptedJwksFile(Path file, char[] password) {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(password, "password");
    KeyContent.Unlock unlock = KeyContent.Unlock.password(password);
    return add(b -> new FileSource(file, unlock, b.filePoll), "encryptedJwksFile(" + file + ")");
  }

  /**
   * A JWKS file encrypted with {@link EncryptedJwks} under a 32-byte key-encryption key
   * (copied), reloaded like {@link #jwksFile(Path)}; a plain JWKS in its place is refused.
   *
   * @throws IllegalArgumentException unless the key has 32 bytes
   */
  public KeyringBuilder encryptedJwksFile(Path file, byte[] keyEncryptionKey) {
    Objects.requireNonNull(file, "file");
    if (keyEncryptionKey.length != EncryptedJwks.KEK_BYTES) {
      throw new IllegalArgumentException("a key-encryption key has " + EncryptedJwks.KEK_BYTES + " bytes");
    }
    KeyContent.Unlock unlock = KeyContent.Unlock.kek(keyEncryptionKey);
    return add(b -> new FileSource(file, unlock, b.filePoll), "encryptedJwksFile(" + file + ")");
  }

  /**
   * One key from a PEM file (PKCS#8, SEC1 or SubjectPublicKeyInfo; see {@link PemKeys}), read
   * once at start, with an optional lifecycle (any instant may be {@code null}).
   */
  public KeyringBuilder pemFile(String kid, Path file, Instant activates, Instant retires, Instant expires) {
    Objects.requireNonNull(kid, "kid");
    Objects.requireNonNull(file, "file");
    return add(b -> new FixedSource("PEM file " + file,
        () -> KeySet.of(PemKeys.read(kid, file).withLifecycle(null, activates, retires, expires))),
        "pemFile(" + file + ")");
  }

  /**
   * An environment variable holding a JWKS, an encrypted JWKS (with {@link
   * #environment(String, String)}), or — the simplest case — one base64url secret of at least 32
   * bytes, which becomes an HS256 key whose kid is {@code secret-} and the first 8 hex digits of
   * the secret's SHA-256 (so every node derives the same kid, and the kid reveals nothing
   * usable). Read once, at start, through {@link #environmentReader(Function)}.
   */
  public KeyringBuilder environment(String variable) {
    Objects.requireNonNull(variable, "variable");
    return add(b -> SourceSpec.environment(variable, null, b.environment), "environment(" + variable + ")");
  }

  /**
   * An environment variable holding an encrypted JWKS (nothing else is accepted), and the
   * variable that holds its password. Read once, at start.
   */
  public KeyringBuilder environment(String variable, String passwordVariable) {
    Objects.requireNonNull(variable, "variable");
    Objects.requireNonNull(passwordVariable, "passwordVariable");
    return add(b -> SourceSpec.environment(variable, passwordVariable, b.environment), "environment(" + variable + ")");
  }

  /**
   * A JWKS over HTTPS, typically another service's public keys. Fetched again at a random
   * 75–90 % of its {@code Cache-Control: max-age} (conditionally, with {@code If-None-Match};
   * {@code no-cache} and {@code no-store} mean the minimum interval), within {@link
   * #httpRefreshBounds(Duration, Duration)}; early when a token names an unknown kid; with
   * exponential back-off and jitter after failures. Redirects are not followed.
   *
   * <p><b>Security.</b> A document fetched over the network never chooses this node's signing
   * key and is not trusted with secrets: the source is {@linkplain #verifyOnly() verify-only}.
   * Private parts ({@code d}) are removed, secret ({@code oct}) keys dropped unless {@link
   * #acceptSecretKeys()} follows, and a kid a local source also holds keeps the local key.
   * What is dropped is logged once as a warning (kids only). A plain {@code http} URL is refused
   * at {@link #build()} unless {@link #httpAllowInsecurePlainHttp(boolean)} says otherwise.
   *
   * @throws IllegalArgumentException unless the URL is {@code https} (or {@code http}) with a host
   */
  public KeyringBuilder jwksUrl(URI url) {
    sources.add(SourceSpec.http(url));
    anyHttp = true;
    return this;
  }

  /**
   * Makes the source added just before this call verify-only, e.g. a JWKS file of a peer's
   * public keys: its keys verify tokens and are never chosen to sign, a kid that a local source
   * also holds keeps the local key (whatever the order sources were added in; the clash is
   * logged and listed in {@link KeyringStatus#conflictingKeyIds()}), private parts are removed and
   * secret keys dropped unless {@link #acceptSecretKeys()} follows. HTTP sources are verify-only
   * already.
   *
   * @throws IllegalStateException when no source was added yet
   */
  public KeyringBuilder verifyOnly() {
    last("verifyOnly()").verifyOnly = true;
    return this;
  }

  /**
   * Lets the verify-only source added just before this call hand this node secret ({@code
   * oct}) keys, e.g. a shared HMAC key a peer signs with. They verify only: each is retired from
   * the start (retires when it activates), so it is never chosen to sign. Without this call such
   * keys are dropped and logged. Only for a source you trust with secrets, over https.
   *
   * @throws IllegalStateException when no source was added yet
   * @see #verifyOnly()
   */
  public KeyringBuilder acceptSecretKeys() {
    last("acceptSecretKeys()").acceptSecretKeys = true;
    return this;
  }

  /**
   * Allows {@code http://} JWKS URLs: INSECURE, since anyone on the network path can then
   * replace the keys this node verifies with, and so forge any token. For loopback and tests,
   * or a network path that is already encrypted and authenticated (a service-mesh sidecar on
   * localhost). Default {@code false}: a plain http URL fails {@link #build()}. A plain http
   * URL to a host that is not a loopback address is logged as a warning even when allowed.
   */
  public KeyringBuilder httpAllowInsecurePlainHttp(boolean allowed) {
    once("httpAllowInsecurePlainHttp");
    allowPlainHttp = allowed;
    return this;
  }

  /**
   * In-memory keys made at start, one A256GCM (for {@code dir}, the servlet filter's default)
   * and one HS256, for development on one node: tokens do not survive
   * a restart and do not verify on other nodes, and the keyring says so in a warning. Refused
   * together with any other source.
   */
  public KeyringBuilder ephemeralDevelopmentKey() {
    once("ephemeralDevelopmentKey");
    ephemeral = true;
    return add(b -> SourceSpec.ephemeralKey(), "ephemeralDevelopmentKey()");
  }

  // The option setters below share one shape (once, check, assign) by design: one documented method per option.
  /** How often JWKS files are checked for changes; default 5 s. */
  public KeyringBuilder filePollInterval(Duration interval) {
    once("filePollInterval");
    filePoll = BuilderChecks.positive(interval, "filePollInterval");
    return this;
  }

  /** At most one early HTTP check per this interval when tokens name unknown kids; default 30 s. */
  public KeyringBuilder unknownKeyRefreshInterval(Duration interval) {
    once("unknownKeyRefreshInterval");
    unknownKeyInterval = BuilderChecks.positive(interval, "unknownKeyRefreshInterval");
    return this;
  }

  /** HTTP connect timeout; default 5 s. */
  public KeyringBuilder httpConnectTimeout(Duration timeout) {
    once("httpConnectTimeout");
    http.connectTimeout = BuilderChecks.positive(timeout, "httpConnectTimeout");
    return this;
  }

  /**
   * HTTP read timeout: how long one fetch may take from sending the request to the last byte
   * of the response body (a server that sends headers and then stalls is cut off too);
   * default 10 s. A whole fetch, connecting included, ends within the connect timeout plus
   * this one.
   */
  public KeyringBuilder httpReadTimeout(Duration timeout) {
    once("httpReadTimeout");
    http.readTimeout = BuilderChecks.positive(timeout, "httpReadTimeout");
    return this;
  }

  /**
   * Bounds for the interval between HTTP refreshes derived from {@code max-age}; defaults 30 s
   * and 1 h. Without {@code max-age}, 5 minutes (kept within the bounds).
   *
   * @throws IllegalArgumentException if {@code min} is above {@code max}
   */
  public KeyringBuilder httpRefreshBounds(Duration min, Duration max) {
    once("httpRefreshBounds");
    BuilderChecks.positive(min, "min");
    BuilderChecks.positive(max, "max");
    if (min.compareTo(max) > 0) {
      throw new IllegalArgumentException("the minimum refresh interval is above the maximum");
    }
    http.minRefresh = min;
    http.maxRefresh = max;
    http.defaultRefresh = http.defaultRefresh.compareTo(max) > 0 ? max
        : http.defaultRefresh.compareTo(min) < 0 ? min : http.defaultRefresh;
    return this;
  }

  /**
   * First delay of the exponential back-off after an HTTP failure; default 1 s. The n-th
   * failure in a row waits a random 50–100 % of {@code first × 2^(n-1)}, at most the maximum
   * refresh interval.
   */
  public KeyringBuilder httpBackoff(Duration first) {
    once("httpBackoff");
    http.minBackoff = BuilderChecks.positive(first, "httpBackoff");
    return this;
  }

  /**
   * How long an HTTP source's last good keys are served while it keeps failing; after that
   * they no longer verify (logged as an error) until it answers again. A token under one of
   * them is then an outage, not the client's bad token: its decode fails with {@code
   * TokenException} reason {@code KEY_SOURCE_UNAVAILABLE} (the servlet filter answers {@code 503}
   * with {@code Retry-After}), never {@code UNKNOWN_KEY}, so an unreachable JWKS never logs
   * everyone out silently. Default 24 h.
   */
  public KeyringBuilder httpMaxStale(Duration maxStale) {
    once("httpMaxStale");
    http.maxStale = BuilderChecks.positive(maxStale, "httpMaxStale");
    return this;
  }

  /**
   * Largest JWKS response accepted; default 1 MiB.
   *
   * @throws IllegalArgumentException unless 256 bytes to 16 MiB
   */
  public KeyringBuilder httpMaxResponseBytes(int bytes) {
    once("httpMaxResponseBytes");
    if (bytes < 256 || bytes > (16 << 20)) {
      throw new IllegalArgumentException("httpMaxResponseBytes must be 256 bytes to 16 MiB");
    }
    http.maxResponseBytes = bytes;
    return this;
  }

  /**
   * Whether {@link #build()} fails when an HTTP source cannot be fetched at start (the
   * default, {@code true}). With {@code false}, the keyring starts without that source's keys
   * — even with no keys at all, loudly logged — and keeps fetching in the background with
   * back-off; tokens it would verify are rejected until then.
   */
  public KeyringBuilder httpRequiredAtStart(boolean required) {
    once("httpRequiredAtStart");
    http.requiredAtStart = required;
    return this;
  }

  /** The clock for lifecycles, stale bounds, status times and rate limits; default UTC system clock. */
  public KeyringBuilder clock(Clock clock) {
    once("clock");
    this.clock = Objects.requireNonNull(clock, "clock");
    return this;
  }

  /**
   * Where {@link #environment(String)} reads variables; default {@link System#getenv(String)}.
   * Tests pass e.g. {@code Map.of("SESSION_KEYS", jwks)::get}.
   */
  public KeyringBuilder environmentReader(Function<String, String> reader) {
    once("environmentReader");
    this.environment = Objects.requireNonNull(reader, "reader");
    return this;
  }

  /**
   * Told of every source check (outcome, last success) and every change of the keys in force;
   * {@link SessionlessListener#NONE} if not set. Called on the refresh thread; its exceptions
   * are caught and logged once.
   */
  public KeyringBuilder listener(SessionlessListener listener) {
    once("listener");
    this.listener = Objects.requireNonNull(listener, "listener");
    return this;
  }

  /**
   * The longest lifetime of any token the codecs using these keys make, for {@link
   * KeyStatus#safeToDelete()}; {@link TokenCodec#MAX_TIME_TO_LIVE} (400 days) if not set, so
   * without it a key is safe to delete only once it has expired. 1 second to 400 days.
   */
  public KeyringBuilder maxTokenLifetime(Duration lifetime) {
    Objects.requireNonNull(lifetime, "lifetime");
    if (lifetime.compareTo(Duration.ofSeconds(1)) < 0 || lifetime.compareTo(TokenCodec.MAX_TIME_TO_LIVE) > 0) {
      throw new IllegalArgumentException("maxTokenLifetime must be 1 second to 400 days, got " + lifetime);
    }
    once("maxTokenLifetime");
    this.maxTokenLifetime = lifetime;
    return this;
  }

  /**
   * How long this node must see no token verified with a key before its traffic confirms the key
   * is {@link KeyStatus#safeToDelete() safe to delete}; one hour if not set, at least one second.
   */
  public KeyringBuilder retirementTrafficWindow(Duration window) {
    Objects.requireNonNull(window, "window");
    if (window.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new IllegalArgumentException("retirementTrafficWindow must be at least 1 second, got " + window);
    }
    once("retirementTrafficWindow");
    this.trafficWindow = window;
    return this;
  }

  /**
   * How many tokens one A256GCM key may encrypt on this node; 2^28 (268,435,456) if not set.
   *
   * <p><b>Why a budget.</b> Each token is encrypted under the key with a random 96-bit IV. NIST SP
   * 800-38D (section 8.3) allows 2^32 encryptions per key with random IVs, which keeps the chance
   * of two repeating an IV (which would expose the authentication key and the XOR of the two
   * plaintexts) at 2^-32 or less. The limit is per key across every node, but each node counts
   * alone, from its start: the default gives 16 nodes (or node lifetimes, since a restart starts
   * counting again) a budget each within 2^32. With more nodes, rotate more often or set a smaller
   * budget; at 1,000 encodes a second a node spends 2^28 in about three days.
   *
   * <p>Once a key passes half its budget, a warning is logged (once). At the budget the key stops
   * encrypting on this node: another A256GCM key that may sign now takes over if the set has one;
   * otherwise an encode fails with {@code TokenException} reason {@code KEY_SOURCE_UNAVAILABLE}, an
   * outage (the servlet filter answers {@code 503}), whose message says to rotate ({@code keyring
   * rotate}). {@link KeyStatus#encryptions()} shows the count.
   *
   * @throws IllegalArgumentException unless 1 to 2^32
   */
  public KeyringBuilder encryptionBudgetPerKey(long encryptions) {
    if (encryptions < 1 || encryptions > (1L << 32)) {
      throw new IllegalArgumentException("encryptionBudgetPerKey must be 1 to 2^32, got " + encryptions);
    }
    once("encryptionBudgetPerKey");
    this.encryptionBudget = encryptions;
    return this;
  }

  /** Test hook: who runs the checks (a fake that follows a fake clock). Not public API. */
  KeyringBuilder scheduler(Supplier<RefreshScheduler> scheduler) {
    once("scheduler");
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    return this;
  }

  /**
   * Loads every source once, synchronously, then starts the refresh thread.
   *
   * @throws KeyringException {@code CONFIGURATION} without sources, for an ephemeral key beside
   *     other sources or marked verify-only, for HTTP options without an HTTP source, for a
   *     plain http JWKS URL without {@link #httpAllowInsecurePlainHttp(boolean)}, for {@link
   *     #acceptSecretKeys()} on a source that is not verify-only, or when the sources hold no
   *     keys; otherwise the reason of the first source that cannot be loaded ({@code
   *     UNAVAILABLE}, {@code MALFORMED}, {@code DECRYPTION_FAILED}, {@code UNSAFE_PARAMETERS},
   *     {@code INTERNAL})
   */
  public Keyring build() {
    SourceSpec.validateAll(sources, ephemeral, anyHttp, set, allowPlainHttp);
    // Each build() makes sources of its own, with the options as they stand now: two
    // keyrings never share a source's state.
    List<Source> resolved = new ArrayList<>();
    for (SourceSpec spec : sources) {
      resolved.add(spec.make(this));
    }
    return Keyring.start(this, resolved);
  }
}
