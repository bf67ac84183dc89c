package dev.sessionless.keyring;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.SessionlessListener;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.KeyringException.Reason;
import dev.sessionless.core.internal.SafeListener;
import dev.sessionless.keyring.internal.FileSource;
import dev.sessionless.keyring.internal.FixedSource;
import dev.sessionless.keyring.internal.HttpSource;
import dev.sessionless.keyring.internal.KeyContent;
import dev.sessionless.keyring.internal.KeyringEvents;
import dev.sessionless.keyring.internal.RefreshScheduler;
import dev.sessionless.keyring.internal.Source;
import dev.sessionless.keyring.internal.ThreadScheduler;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A live key source: keys from JWKS files, environment variables, HTTP(S) JWKS URLs and PEM
 * files, kept fresh by one background thread, handed to {@link dev.sessionless.core.TokenCodec}
 * as an immutable snapshot.
 *
 * <pre>{@code
 * try (Keyring keys = Keyring.builder()
 *     .jwksFile(Path.of("/run/secrets/session-keys.jwks"))        // signing keys, reloaded on change
 *     .jwksUrl(URI.create("https://auth.example/.well-known/jwks.json")) // more verification keys
 *     .build()) {                                                   // loads now, or KeyringException
 *   TokenCodec codec = TokenCodec.builder().keys(keys).issuer("https://shop.example")
 *       .audience("shop").timeToLive(Duration.ofMinutes(30)).build();
 *   // ... serve requests; keys.status() tells what each source did last
 * }
 * }</pre>
 *
 * <p><b>Rotation without a coordinator.</b> Every key carries its lifecycle (JWK members {@code
 * published}, {@code activates}, {@code retires}, {@code expires}), so every node holding the same
 * keys picks the same signing key from its clock alone. Publish a new key longer before it
 * activates than the slowest node takes to refresh (its poll interval, or its HTTP refresh
 * interval), and keep a retired key until the longest token lifetime (plus the codec's clock
 * skew) has passed; the {@code keyring rotate} command does both. Then no node ever signs with a
 * key another node does not hold yet, and no token outlives the key that verifies it.
 *
 * <p><b>Sources.</b> {@link Builder#jwksFile(Path) JWKS files} are polled (real path through
 * every symbolic link, size, modification time and content hash) and reloaded on change,
 * including the atomic symlink swap of a Kubernetes Secret volume; {@link
 * Builder#environment(String) environment variables} and {@link Builder#keys(KeySet) key sets
 * given in code} are read once; {@link Builder#jwksUrl(URI) HTTP JWKS URLs} are fetched
 * conditionally before their {@code Cache-Control: max-age} runs out. A source that fails keeps
 * its last good keys — a half-written or deleted file never replaces a good key set — and the
 * failure is logged and counted in {@link #status()}. An HTTP source that has failed for longer
 * than {@link Builder#httpMaxStale(Duration)} has its keys <em>dropped</em> (logged as an error),
 * so tokens under them are rejected: keys that cannot be confirmed for that long may have been
 * withdrawn.
 *
 * <p><b>Composition.</b> The snapshot is the union of every source's keys, e.g. local signing
 * keys from a file plus another service's public keys over HTTP. When two sources hold different
 * keys under one kid, that is a configuration error, logged once as an error and shown in {@link
 * Status#conflictingKeyIds()}; a local source wins over a verify-only one whatever the order,
 * otherwise the source added to the builder <em>first</em> wins, on every node alike.
 *
 * <p><b>Verify-only sources.</b> A document fetched over the network never chooses this node's
 * signing key and is not trusted with secrets: HTTP sources, and any source marked {@link
 * Builder#verifyOnly()}, contribute public keys (private parts removed) and — only with {@link
 * Builder#acceptSecretKeys()} — secret keys retired from the start, so none of their keys ever
 * signs; a plain {@code http} URL needs {@link Builder#httpAllowInsecurePlainHttp(boolean)}.
 *
 * <p><b>Refresh.</b> {@link #current()} is a volatile read and never blocks or does I/O. Checks
 * run on one daemon thread ({@code sessionless-keyring-N}) that {@link #close()} stops. An
 * unexpected exception or error during a check (a bug, a logging back end that throws) is counted
 * in {@link #status()} and logged, and the next check is scheduled all the same. When a
 * check yields the keys already held (same kids, material and lifecycles), the very same
 * snapshot object stays in force, so the codec keeps its verification cache.
 *
 * <p><b>Unknown kids.</b> When a token names a kid this keyring does not hold, the codec calls
 * {@link #unknownKeyId(String)}; HTTP sources are then checked early on the background thread, at
 * most once per {@link Builder#unknownKeyRefreshInterval(Duration)}, so random kids in forged
 * tokens cannot turn into a flood of requests.
 *
 * <p><b>Development.</b> With no source configured, {@link Builder#build()} fails. For a single
 * development node, {@link Builder#ephemeralDevelopmentKey()} makes a random key in memory and
 * logs a warning that tokens will neither survive a restart nor verify on another node.
 *
 * <p><b>Security.</b> No key material, password or URL query string appears in a log line, an
 * exception, {@link #toString()} or {@link #status()}. Logging goes through {@link
 * System.Logger} (logger {@code dev.sessionless.keyring.Keyring}).
 *
 * <p><b>Limits.</b> Environment variables and PEM files are read once. A JWKS file is noticed
 * within one poll interval of its change. A broken source is retried, never skipped: if the only
 * source is broken at start, {@code build()} fails (an HTTP source may be allowed to start
 * empty, see {@link Builder#httpRequiredAtStart(boolean)}).
 *
 * <p>Thread-safe.
 */
public final class Keyring implements KeySource, AutoCloseable {
  private final List<Source> sources;
  private final Clock clock;
  private final KeyUsage usage;
  private final RefreshLoop refresh;
  private final SnapshotPublisher published;
  private final Duration maxTokenLifetime;
  private final Duration trafficWindow;
  private final Instant started;

  private Keyring(Builder b, List<Source> sources) {
    this.sources = List.copyOf(sources);
    this.clock = b.clock;
    RefreshScheduler scheduler = b.scheduler.get();
    this.usage = new KeyUsage(b.clock, b.trafficWindow);
    this.refresh = new RefreshLoop(this.sources, b.clock, b.unknownKeyInterval, scheduler, usage,
        new KeyringEvents(SafeListener.wrap(b.listener)));
    this.published = refresh.published();
    this.maxTokenLifetime = b.maxTokenLifetime;
    this.trafficWindow = b.trafficWindow;
    this.started = b.clock.instant();
  }

  /** A builder; at least one source is required. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The keys in force now: a volatile read of an immutable snapshot, never blocking, whatever the
   * refresh thread is doing. After {@link #close()}, the last snapshot.
   */
  @Override
  public KeySet current() {
    return published.current();
  }

  /**
   * Checks the HTTP sources early, on the background thread, unless that was asked for less than
   * the unknown-key refresh interval ago (by this keyring's clock). Returns at once; the token
   * that named the kid is rejected whatever happens here. Without HTTP sources, does nothing.
   *
   * @param kid the kid a token named; never logged (it comes from an unverified token)
   */
  @Override
  public void unknownKeyId(String kid) {
    refresh.unknownKeyId();
  }

  /** Counts the verification per kid, for {@link KeyStatus}: a map look-up and a counter, no lock. */
  @Override
  public void verifiedWith(TokenKey key) {
    usage.verified(key);
  }

  /** Notes when the key last signed on this node, for {@link KeyStatus}. */
  @Override
  public void signedWith(TokenKey key) {
    usage.signed(key);
  }

  /**
   * The diagnostics view: what each source did last, which keys are in force, and per key
   * whether it is safe to retire or delete ({@link Status#keys()}). Never key material. Cheap
   * enough for a health endpoint.
   */
  public Status status() {
    Instant now = clock.instant();
    List<SourceStatus> list = new ArrayList<>();
    for (Source s : sources) {
      Source.State st = s.state();
      list.add(new SourceStatus(s.describe(), st, s.isVerifyOnly()));
    }
    KeySet keys = published.current();
    Map<Algorithm, String> signing = new EnumMap<>(Algorithm.class);
    for (Algorithm a : Algorithm.values()) {
      keys.signingKey(a, now).ifPresent(k -> signing.put(a, k.kid()));
    }
    return new Status(list, SnapshotPublisher.kids(keys), signing, published.conflicts(), refresh.refreshErrors(),
        refresh.closed(), usage.statuses(keys, now, maxTokenLifetime, trafficWindow, started));
  }

  /**
   * Stops the refresh thread (interrupting a check in progress) and releases the HTTP clients;
   * idempotent. {@link #current()} keeps answering the last snapshot, which no longer changes.
   */
  @Override
  public void close() {
    refresh.close();
  }

  /** The sources and kids; never key material. */
  @Override
  public String toString() {
    List<String> names = new ArrayList<>();
    for (Source s : sources) {
      names.add(s.describe());
    }
    return "Keyring[sources=" + names + ", kids=" + SnapshotPublisher.kids(published.current())
        + (refresh.closed() ? ", closed" : "") + "]";
  }

  /** The state of a keyring: per source, and the keys in force. Immutable; never key material. */
  public static final class Status {
    private final List<SourceStatus> sources;
    private final List<String> keyIds;
    private final Map<Algorithm, String> signingKeyIds;
    private final Set<String> conflictingKeyIds;
    private final long refreshErrors;
    private final boolean closed;
    private final List<KeyStatus> keys;

    Status(List<SourceStatus> sources, List<String> keyIds, Map<Algorithm, String> signingKeyIds,
        Set<String> conflictingKeyIds, long refreshErrors, boolean closed, List<KeyStatus> keys) {
      this.keys = List.copyOf(keys);
      this.sources = List.copyOf(sources);
      this.keyIds = List.copyOf(keyIds);
      Map<Algorithm, String> copy = new EnumMap<>(Algorithm.class);
      copy.putAll(signingKeyIds);
      this.signingKeyIds = Collections.unmodifiableMap(copy);
      this.conflictingKeyIds = Collections.unmodifiableSet(new TreeSet<>(conflictingKeyIds));
      this.refreshErrors = refreshErrors;
      this.closed = closed;
    }

    /** One entry per source, in configuration order. */
    public List<SourceStatus> sources() {
      return sources;
    }

    /** The kids of the snapshot in force. */
    public List<String> keyIds() {
      return keyIds;
    }

    /** Per key in force: lifecycle, this node's traffic, and whether it is safe to retire or delete. */
    public List<KeyStatus> keys() {
      return keys;
    }

    /** For each algorithm that has one, the kid that signs now (by the keyring's clock). */
    public Map<Algorithm, String> signingKeyIds() {
      return signingKeyIds;
    }

    /** Kids that two sources hold with different keys (the first source's key is used); normally empty. */
    public Set<String> conflictingKeyIds() {
      return conflictingKeyIds;
    }

    /**
     * Unexpected failures of the refresh itself, outside any one source's check: a bug, or a
     * logging back end that throws. Each is logged at {@code ERROR} the first time per kind (when
     * logging works), and never stops the refresh; normally 0. A source's own unexpected failures
     * are counted in its {@link SourceStatus#failures()} with the reason {@code INTERNAL}.
     */
    public long refreshErrors() {
      return refreshErrors;
    }

    /** Whether the keyring was closed, so its keys no longer change. */
    public boolean closed() {
      return closed;
    }

    @Override
    public String toString() {
      return "Keyring.Status[keys=" + keyIds + ", signing=" + signingKeyIds
          + (conflictingKeyIds.isEmpty() ? "" : ", conflicts=" + conflictingKeyIds)
          + (refreshErrors == 0 ? "" : ", refreshErrors=" + refreshErrors)
          + (closed ? ", closed" : "") + ", sources=" + sources + "]";
    }
  }

  /** What one source did last. Immutable; never key material. */
  public static final class SourceStatus {
    private final String description;
    private final Source.State state;
    private final List<String> keyIds;
    private final boolean verifyOnly;

    SourceStatus(String description, Source.State state, boolean verifyOnly) {
      this.description = description;
      this.state = state;
      this.keyIds = SnapshotPublisher.kids(state.keys);
      this.verifyOnly = verifyOnly;
    }

    /** The source: a path, a variable name or a URL without its query. */
    public String description() {
      return description;
    }

    /** When the last check succeeded (by the keyring's clock). */
    public Optional<Instant> lastSuccess() {
      return Optional.ofNullable(state.lastSuccess);
    }

    /** The reason and message of the last failure, if any, e.g. {@code "UNAVAILABLE: ... answered HTTP 503"}. */
    public Optional<String> lastFailure() {
      return Optional.ofNullable(state.lastFailure);
    }

    /** The reason of the last failure, if any. */
    public Optional<Reason> lastFailureReason() {
      return Optional.ofNullable(state.lastFailureReason);
    }

    /** When the last failure happened (by the keyring's clock), if any. */
    public Optional<Instant> lastFailureTime() {
      return Optional.ofNullable(state.lastFailureTime);
    }

    /** Checks made since the start, including failed ones. */
    public long checks() {
      return state.checks;
    }

    /** Failed checks since the start. */
    public long failures() {
      return state.failures;
    }

    /** Failed checks since the last success: 0 when the source is healthy. */
    public int consecutiveFailures() {
      return state.failuresInARow;
    }

    /**
     * The delay chosen after the last check until the next one (a poll interval, a share of
     * {@code max-age}, or a back-off after failures); zero before the first check.
     */
    public Duration nextCheckDelay() {
      return state.nextCheckDelay == null ? Duration.ZERO : state.nextCheckDelay;
    }

    /** The kids this source holds now. */
    public List<String> keyIds() {
      return keyIds;
    }

    /**
     * Whether the source is verify-only (every HTTP JWKS, and sources marked {@link
     * Builder#verifyOnly()}): its keys never sign and never override a local source's key.
     */
    public boolean verifyOnly() {
      return verifyOnly;
    }

    /**
     * Kids of secret keys this verify-only source offered at its last good load and that were
     * dropped (see {@link Builder#acceptSecretKeys()}); normally empty.
     */
    public List<String> refusedKeyIds() {
      return state.refusedKeyIds;
    }

    @Override
    public String toString() {
      return description + "[checks=" + state.checks + ", failures=" + state.failures
          + (state.failuresInARow > 0 ? ", inARow=" + state.failuresInARow : "")
          + lastSuccess().map(i -> ", lastSuccess=" + i).orElse("")
          + lastFailure().map(f -> ", lastFailure=" + f).orElse("")
          + ", next=" + nextCheckDelay() + ", kids=" + keyIds + (verifyOnly ? ", verifyOnly" : "")
          + (state.refusedKeyIds.isEmpty() ? "" : ", refused=" + state.refusedKeyIds) + "]";
    }
  }

  /**
   * Configures a {@link Keyring}. Sources are consulted in the order added (the first wins a kid
   * conflict); at least one is required. Options other than sources may be set once; everything
   * is checked by {@link #build()}. Not thread-safe.
   */
  public static final class Builder {
    /** How to make each source at build(), when every option is known; fresh sources per build. */
    private final List<SourceSpec> sources = new ArrayList<>();
    private final HttpSource.Options http = new HttpSource.Options();
    private final Set<String> set = new HashSet<>();
    private Clock clock = Clock.systemUTC();
    private Duration filePoll = Duration.ofSeconds(5);
    private Duration unknownKeyInterval = Duration.ofSeconds(30);
    private Function<String, String> environment = System::getenv;
    private Supplier<RefreshScheduler> scheduler = ThreadScheduler::new;
    private boolean ephemeral;
    private boolean anyHttp;
    private boolean allowPlainHttp;
    private SessionlessListener listener = SessionlessListener.NONE;
    private Duration maxTokenLifetime = TokenCodec.MAX_TIME_TO_LIVE;
    private Duration trafficWindow = Duration.ofHours(1);

    private Builder() {}

    private Builder add(Function<Builder, Source> make, String what) {
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
      if (!set.add(option)) {
        throw new IllegalStateException(option + " was already set");
      }
    }

    private static Duration positive(Duration d, String name) {
      Objects.requireNonNull(d, name);
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException(name + " must be positive, got " + d);
      }
      return d;
    }

    /** A fixed key set, e.g. keys made in code or read elsewhere. */
    public Builder keys(KeySet keys) {
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
    public Builder jwksFile(Path file) {
      Objects.requireNonNull(file, "file");
      return add(b -> new FileSource(file, KeyContent.Unlock.none(), b.filePoll), "jwksFile(" + file + ")");
    }

    /**
     * A JWKS file encrypted with {@link EncryptedJwks} under a password (copied; clear yours),
     * reloaded like {@link #jwksFile(Path)}. A plain JWKS in its place is refused ({@code
     * MALFORMED}): whoever can write the file but lacks the password cannot slip in keys.
     */
    public Builder encryptedJwksFile(Path file, char[] password) {
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
    public Builder encryptedJwksFile(Path file, byte[] keyEncryptionKey) {
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
    public Builder pemFile(String kid, Path file, Instant activates, Instant retires, Instant expires) {
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
    public Builder environment(String variable) {
      Objects.requireNonNull(variable, "variable");
      return add(b -> SourceSpec.environment(variable, null, b.environment), "environment(" + variable + ")");
    }

    /**
     * An environment variable holding an encrypted JWKS (nothing else is accepted), and the
     * variable that holds its password. Read once, at start.
     */
    public Builder environment(String variable, String passwordVariable) {
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
    public Builder jwksUrl(URI url) {
      Objects.requireNonNull(url, "url");
      String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
      if (!scheme.equals("https") && !scheme.equals("http") || url.getHost() == null) {
        throw new IllegalArgumentException("a JWKS URL must be https (or, where allowed, http) with a host");
      }
      sources.add(new SourceSpec(b -> new HttpSource(url, b.http), "jwksUrl", url));
      anyHttp = true;
      return this;
    }

    /**
     * Makes the source added just before this call verify-only, e.g. a JWKS file of a peer's
     * public keys: its keys verify tokens and are never chosen to sign, a kid that a local source
     * also holds keeps the local key (whatever the order sources were added in; the clash is
     * logged and listed in {@link Status#conflictingKeyIds()}), private parts are removed and
     * secret keys dropped unless {@link #acceptSecretKeys()} follows. HTTP sources are verify-only
     * already.
     *
     * @throws IllegalStateException when no source was added yet
     */
    public Builder verifyOnly() {
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
    public Builder acceptSecretKeys() {
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
    public Builder httpAllowInsecurePlainHttp(boolean allowed) {
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
    public Builder ephemeralDevelopmentKey() {
      once("ephemeralDevelopmentKey");
      ephemeral = true;
      return add(b -> SourceSpec.ephemeralKey(), "ephemeralDevelopmentKey()");
    }

    /** How often JWKS files are checked for changes; default 5 s. */
    public Builder filePollInterval(Duration interval) {
      once("filePollInterval");
      filePoll = positive(interval, "filePollInterval");
      return this;
    }

    /** At most one early HTTP check per this interval when tokens name unknown kids; default 30 s. */
    public Builder unknownKeyRefreshInterval(Duration interval) {
      once("unknownKeyRefreshInterval");
      unknownKeyInterval = positive(interval, "unknownKeyRefreshInterval");
      return this;
    }

    /** HTTP connect timeout; default 5 s. */
    public Builder httpConnectTimeout(Duration timeout) {
      once("httpConnectTimeout");
      http.connectTimeout = positive(timeout, "httpConnectTimeout");
      return this;
    }

    /**
     * HTTP read timeout: how long one fetch may take from sending the request to the last byte
     * of the response body (a server that sends headers and then stalls is cut off too);
     * default 10 s. A whole fetch, connecting included, ends within the connect timeout plus
     * this one.
     */
    public Builder httpReadTimeout(Duration timeout) {
      once("httpReadTimeout");
      http.readTimeout = positive(timeout, "httpReadTimeout");
      return this;
    }

    /**
     * Bounds for the interval between HTTP refreshes derived from {@code max-age}; defaults 30 s
     * and 1 h. Without {@code max-age}, 5 minutes (kept within the bounds).
     *
     * @throws IllegalArgumentException if {@code min} is above {@code max}
     */
    public Builder httpRefreshBounds(Duration min, Duration max) {
      once("httpRefreshBounds");
      positive(min, "min");
      positive(max, "max");
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
    public Builder httpBackoff(Duration first) {
      once("httpBackoff");
      http.minBackoff = positive(first, "httpBackoff");
      return this;
    }

    /**
     * How long an HTTP source's last good keys are served while it keeps failing; after that
     * they are dropped (logged as an error) and tokens under them rejected until it answers
     * again. Default 24 h.
     */
    public Builder httpMaxStale(Duration maxStale) {
      once("httpMaxStale");
      http.maxStale = positive(maxStale, "httpMaxStale");
      return this;
    }

    /**
     * Largest JWKS response accepted; default 1 MiB.
     *
     * @throws IllegalArgumentException unless 256 bytes to 16 MiB
     */
    public Builder httpMaxResponseBytes(int bytes) {
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
    public Builder httpRequiredAtStart(boolean required) {
      once("httpRequiredAtStart");
      http.requiredAtStart = required;
      return this;
    }

    /** The clock for lifecycles, stale bounds, status times and rate limits; default UTC system clock. */
    public Builder clock(Clock clock) {
      once("clock");
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Where {@link #environment(String)} reads variables; default {@link System#getenv(String)}.
     * Tests pass e.g. {@code Map.of("SESSION_KEYS", jwks)::get}.
     */
    public Builder environmentReader(Function<String, String> reader) {
      once("environmentReader");
      this.environment = Objects.requireNonNull(reader, "reader");
      return this;
    }

    /**
     * Told of every source check (outcome, last success) and every change of the keys in force;
     * {@link SessionlessListener#NONE} if not set. Called on the refresh thread; its exceptions
     * are caught and logged once.
     */
    public Builder listener(SessionlessListener listener) {
      once("listener");
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /**
     * The longest lifetime of any token the codecs using these keys make, for {@link
     * KeyStatus#safeToDelete()}; {@link TokenCodec#MAX_TIME_TO_LIVE} (400 days) if not set, so
     * without it a key is safe to delete only once it has expired. 1 second to 400 days.
     */
    public Builder maxTokenLifetime(Duration lifetime) {
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
    public Builder retirementTrafficWindow(Duration window) {
      Objects.requireNonNull(window, "window");
      if (window.compareTo(Duration.ofSeconds(1)) < 0) {
        throw new IllegalArgumentException("retirementTrafficWindow must be at least 1 second, got " + window);
      }
      once("retirementTrafficWindow");
      this.trafficWindow = window;
      return this;
    }

    /** Test hook: who runs the checks (a fake that follows a fake clock). Not public API. */
    Builder scheduler(Supplier<RefreshScheduler> scheduler) {
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
      if (sources.isEmpty()) {
        throw new KeyringException(Reason.CONFIGURATION, "no key source is configured: add jwksFile, "
            + "environment, jwksUrl, pemFile or keys — or ephemeralDevelopmentKey() for development on one node");
      }
      if (ephemeral && sources.size() > 1) {
        throw new KeyringException(Reason.CONFIGURATION,
            "ephemeralDevelopmentKey() is for development without other sources");
      }
      if (!anyHttp) {
        for (String option : set) {
          if (option.startsWith("http")) {
            throw new KeyringException(Reason.CONFIGURATION, option + " is set but no jwksUrl is configured");
          }
        }
      }
      for (SourceSpec spec : sources) {
        spec.validate(ephemeral, allowPlainHttp);
      }
      // Each build() makes sources of its own, with the options as they stand now: two
      // keyrings never share a source's state.
      List<Source> resolved = new ArrayList<>();
      for (SourceSpec spec : sources) {
        resolved.add(spec.make(this));
      }
      Keyring keyring = new Keyring(this, resolved);
      keyring.refresh.start();
      return keyring;
    }
  }
}
