package dev.sessionless.keyring;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.KeyringException.Reason;
import dev.sessionless.keyring.internal.FileSource;
import dev.sessionless.keyring.internal.FixedSource;
import dev.sessionless.keyring.internal.HttpSource;
import dev.sessionless.keyring.internal.KeyContent;
import dev.sessionless.keyring.internal.Source;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * A live key source: keys from JWKS files, environment variables, HTTP(S) JWKS URLs and PEM
 * files, kept fresh by one background thread, handed to {@link dev.sessionless.core.TokenCodec}
 * as an immutable snapshot.
 *
 * <pre>{@code
 * try (Keyring keys = Keyring.builder()
 *     .jwksFile(Path.of("/run/secrets/session-keys.jwks"))        // signing keys, reloaded on change
 *     .jwksUrl(URI.create("https://auth.example/.well-known/jwks.json")) // more verification keys
 *     .build()) {
 *   TokenCodec codec = TokenCodec.builder().keys(keys).issuer("https://shop.example")
 *       .audience("shop").timeToLive(Duration.ofMinutes(30)).build();
 * }
 * }</pre>
 *
 * <p><b>Rotation without a coordinator.</b> Every key carries its lifecycle (JWK members {@code
 * published}, {@code activates}, {@code retires}, {@code expires}), so every node holding the same
 * keys picks the same signing key from its clock alone. Publish a new key longer before it
 * activates than the slowest node takes to refresh, and keep a retired key until the longest
 * token lifetime has passed; the {@code keyring rotate} command does both.
 *
 * <p><b>Refresh.</b> {@link #current()} is a volatile read and never blocks. Checks run on one
 * daemon thread ({@code sessionless-keyring}) that {@link #close()} stops. A source that fails
 * keeps its last good keys (the failure is logged and counted in {@link #status()}); an HTTP
 * source that has failed for longer than its stale bound has its keys dropped, loudly. When a
 * refresh yields the keys already held, the same snapshot object stays, so the codec's
 * verification cache is kept. When several sources hold the same kid, the source added first to
 * the builder wins (logged).
 *
 * <p><b>Unknown kids.</b> When a token names a kid this keyring does not hold, HTTP sources are
 * checked early, at most once per {@link Builder#unknownKeyRefreshInterval(Duration)}, so random
 * kids cannot turn into a flood of requests.
 *
 * <p>Security: no key material, password or URL query string appears in a log line, an
 * exception, {@link #toString()} or {@link #status()}. Thread-safe.
 */
public final class Keyring implements KeySource, AutoCloseable {
  private static final System.Logger LOG = System.getLogger(Keyring.class.getName());

  private final List<Source> sources;
  private final Clock clock;
  private final Duration unknownKeyInterval;
  private final ScheduledExecutorService thread;
  private final AtomicLong lastUnknownKeyCheck = new AtomicLong(Long.MIN_VALUE);
  private volatile KeySet snapshot = KeySet.empty();
  private volatile boolean closed;

  private Keyring(Builder b, List<Source> sources) {
    this.sources = List.copyOf(sources);
    this.clock = b.clock;
    this.unknownKeyInterval = b.unknownKeyInterval;
    ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "sessionless-keyring");
      t.setDaemon(true);
      return t;
    });
    executor.setRemoveOnCancelPolicy(true);
    executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    this.thread = executor;
  }

  /** A builder; at least one source is required. */
  public static Builder builder() {
    return new Builder();
  }

  private void start() {
    for (Source s : sources) {
      Duration next = s.check(clock.instant(), LOG);
      if (s.lastSuccess() == null) {
        thread.shutdownNow();
        throw new KeyringException(s.lastFailureReason(),
            "could not load keys from " + s.describe() + ": " + s.lastFailure());
      }
      schedule(s, next);
    }
    publish();
    if (snapshot.keys().isEmpty()) {
      thread.shutdownNow();
      throw new KeyringException(Reason.CONFIGURATION, "the configured sources hold no keys");
    }
    LOG.log(System.Logger.Level.INFO, "keyring started with {0} key(s) from {1} source(s): {2}",
        snapshot.keys().size(), sources.size(), snapshot.keys().stream().map(TokenKey::kid).toList());
  }

  private void schedule(Source s, Duration delay) {
    if (closed) {
      return;
    }
    try {
      thread.schedule(() -> run(s), Math.max(1, delay.toMillis()), TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // closed meanwhile
    }
  }

  private void run(Source s) {
    Duration next = s.check(clock.instant(), LOG);
    publish();
    schedule(s, next);
  }

  /** Publishes the union of the sources' keys, keeping the old snapshot object when nothing changed. */
  private void publish() {
    Map<String, TokenKey> union = new LinkedHashMap<>();
    for (Source s : sources) {
      for (TokenKey k : s.keys().keys()) {
        TokenKey first = union.putIfAbsent(k.kid(), k);
        if (first != null && !first.sameAs(k)) {
          LOG.log(System.Logger.Level.WARNING, "kid {0} is held by more than one source with different keys; "
              + "the one from the source configured first is used", k.kid());
        }
      }
    }
    KeySet current = snapshot;
    if (sameKeys(current, union)) {
      return;
    }
    KeySet next = KeySet.of(new ArrayList<>(union.values()));
    snapshot = next;
    if (!current.keys().isEmpty()) {
      LOG.log(System.Logger.Level.INFO, "keys changed: now {0}", union.keySet());
    }
  }

  private static boolean sameKeys(KeySet current, Map<String, TokenKey> next) {
    if (current.keys().size() != next.size()) {
      return false;
    }
    for (TokenKey k : current.keys()) {
      if (!k.sameAs(next.get(k.kid()))) {
        return false;
      }
    }
    return true;
  }

  /** The keys in force now: a volatile read, never blocking. After {@link #close()}, the last snapshot. */
  @Override
  public KeySet current() {
    return snapshot;
  }

  /**
   * Checks the HTTP sources early, on the background thread, unless that was done less than the
   * unknown-key refresh interval ago. Returns at once.
   */
  @Override
  public void unknownKeyId(String kid) {
    if (closed) {
      return;
    }
    long now = clock.millis();
    long last = lastUnknownKeyCheck.get();
    if (last != Long.MIN_VALUE && now - last < unknownKeyInterval.toMillis()) {
      return;
    }
    if (!lastUnknownKeyCheck.compareAndSet(last, now)) {
      return; // another thread just did it
    }
    for (Source s : sources) {
      if (s.checksOnUnknownKey()) {
        try {
          thread.execute(() -> {
            s.check(clock.instant(), LOG);
            publish();
          });
        } catch (java.util.concurrent.RejectedExecutionException e) {
          return;
        }
      }
    }
  }

  /** What each source did last and which keys are in force; never key material. */
  public Status status() {
    Instant now = clock.instant();
    List<SourceStatus> list = new ArrayList<>();
    for (Source s : sources) {
      list.add(new SourceStatus(s.describe(), Optional.ofNullable(s.lastSuccess()), s.checks(), s.failures(),
          Optional.ofNullable(s.lastFailure()),
          s.keys().keys().stream().map(TokenKey::kid).toList()));
    }
    KeySet keys = snapshot;
    Map<Algorithm, String> signing = new EnumMap<>(Algorithm.class);
    for (Algorithm a : Algorithm.values()) {
      keys.signingKey(a, now).ifPresent(k -> signing.put(a, k.kid()));
    }
    return new Status(list, keys.keys().stream().map(TokenKey::kid).toList(), signing);
  }

  /** Stops the refresh thread; idempotent. {@link #current()} keeps answering the last keys. */
  @Override
  public void close() {
    closed = true;
    thread.shutdownNow();
  }

  /** The sources and kids; never key material. */
  @Override
  public String toString() {
    return "Keyring[sources=" + sources.stream().map(Source::describe).toList()
        + ", kids=" + snapshot.keys().stream().map(TokenKey::kid).toList() + (closed ? ", closed" : "") + "]";
  }

  /** The state of the keyring: per source, and the keys in force. Immutable. */
  public static final class Status {
    private final List<SourceStatus> sources;
    private final List<String> keyIds;
    private final Map<Algorithm, String> signingKeyIds;

    Status(List<SourceStatus> sources, List<String> keyIds, Map<Algorithm, String> signingKeyIds) {
      this.sources = List.copyOf(sources);
      this.keyIds = List.copyOf(keyIds);
      Map<Algorithm, String> copy = new EnumMap<>(Algorithm.class);
      copy.putAll(signingKeyIds);
      this.signingKeyIds = Collections.unmodifiableMap(copy);
    }

    /** One entry per source, in configuration order. */
    public List<SourceStatus> sources() {
      return sources;
    }

    /** The kids of the snapshot in force. */
    public List<String> keyIds() {
      return keyIds;
    }

    /** For each algorithm that has one, the kid that signs now. */
    public Map<Algorithm, String> signingKeyIds() {
      return signingKeyIds;
    }

    @Override
    public String toString() {
      return "Keyring.Status[keys=" + keyIds + ", signing=" + signingKeyIds + ", sources=" + sources + "]";
    }
  }

  /** What one source did last. Immutable. */
  public static final class SourceStatus {
    private final String description;
    private final Optional<Instant> lastSuccess;
    private final long checks;
    private final long failures;
    private final Optional<String> lastFailure;
    private final List<String> keyIds;

    SourceStatus(String description, Optional<Instant> lastSuccess, long checks, long failures,
        Optional<String> lastFailure, List<String> keyIds) {
      this.description = description;
      this.lastSuccess = lastSuccess;
      this.checks = checks;
      this.failures = failures;
      this.lastFailure = lastFailure;
      this.keyIds = List.copyOf(keyIds);
    }

    /** The source: a path, a variable name or a URL without its query. */
    public String description() {
      return description;
    }

    /** When the last check succeeded (by the keyring's clock). */
    public Optional<Instant> lastSuccess() {
      return lastSuccess;
    }

    /** Checks made since the start, including failed ones. */
    public long checks() {
      return checks;
    }

    /** Failed checks since the start. */
    public long failures() {
      return failures;
    }

    /** The reason and message of the last failure, if any. */
    public Optional<String> lastFailure() {
      return lastFailure;
    }

    /** The kids this source holds now. */
    public List<String> keyIds() {
      return keyIds;
    }

    @Override
    public String toString() {
      return description + "[checks=" + checks + ", failures=" + failures
          + lastSuccess.map(i -> ", lastSuccess=" + i).orElse("")
          + lastFailure.map(f -> ", lastFailure=" + f).orElse("") + ", kids=" + keyIds + "]";
    }
  }

  /**
   * Configures a {@link Keyring}. Sources are consulted in the order added; at least one is
   * required. Options other than sources may be set once.
   */
  public static final class Builder {
    /** How to make each source at build(), when every option is known; one fresh source per build. */
    private final List<Function<Builder, Source>> sources = new ArrayList<>();
    private final HttpSource.Options http = new HttpSource.Options();
    private Clock clock = Clock.systemUTC();
    private Duration filePoll = Duration.ofSeconds(5);
    private Duration unknownKeyInterval = Duration.ofSeconds(30);
    private Function<String, String> environment = System::getenv;
    private boolean ephemeral;
    private final java.util.Set<String> set = new java.util.HashSet<>();

    private Builder() {}

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
      sources.add(b -> new FixedSource("key set given in code", () -> keys));
      return this;
    }

    /**
     * A JWKS file, reloaded when it changes (checked every {@link #filePollInterval(Duration)},
     * following symbolic links so a Kubernetes Secret volume's atomic swap is seen). An encrypted
     * file needs {@link #encryptedJwksFile(Path, char[])} or {@link #encryptedJwksFile(Path, byte[])}.
     */
    public Builder jwksFile(Path file) {
      Objects.requireNonNull(file, "file");
      sources.add(b -> new FileSource(file, KeyContent.Unlock.none(), b.filePoll));
      return this;
    }

    /** A JWKS file encrypted with {@link EncryptedJwks} under a password (copied; clear yours). */
    public Builder encryptedJwksFile(Path file, char[] password) {
      Objects.requireNonNull(file, "file");
      Objects.requireNonNull(password, "password");
      KeyContent.Unlock unlock = KeyContent.Unlock.password(password);
      sources.add(b -> new FileSource(file, unlock, b.filePoll));
      return this;
    }

    /** A JWKS file encrypted with {@link EncryptedJwks} under a 32-byte key-encryption key (copied). */
    public Builder encryptedJwksFile(Path file, byte[] keyEncryptionKey) {
      Objects.requireNonNull(file, "file");
      if (keyEncryptionKey.length != EncryptedJwks.KEK_BYTES) {
        throw new IllegalArgumentException("a key-encryption key has " + EncryptedJwks.KEK_BYTES + " bytes");
      }
      KeyContent.Unlock unlock = KeyContent.Unlock.kek(keyEncryptionKey);
      sources.add(b -> new FileSource(file, unlock, b.filePoll));
      return this;
    }

    /**
     * One key from a PEM file (PKCS#8, SEC1 or SubjectPublicKeyInfo; see {@link PemKeys}), read
     * once at start, with an optional lifecycle (any instant may be {@code null}).
     */
    public Builder pemFile(String kid, Path file, Instant activates, Instant retires, Instant expires) {
      Objects.requireNonNull(kid, "kid");
      Objects.requireNonNull(file, "file");
      sources.add(b -> new FixedSource("PEM file " + file,
          () -> KeySet.of(PemKeys.read(kid, file).withLifecycle(null, activates, retires, expires))));
      return this;
    }

    /**
     * An environment variable holding a JWKS, an encrypted JWKS (with {@link
     * #environmentPassword(String)}), or one base64url secret of at least 32 bytes, which becomes
     * an HS256 key whose kid is {@code secret-} and 8 hex digits of the secret's SHA-256. Read
     * once, at start.
     */
    public Builder environment(String variable) {
      Objects.requireNonNull(variable, "variable");
      sources.add(b -> environmentSource(variable, null, b.environment));
      return this;
    }

    /**
     * An environment variable holding an encrypted JWKS, and the variable that holds its password.
     */
    public Builder environment(String variable, String passwordVariable) {
      Objects.requireNonNull(variable, "variable");
      Objects.requireNonNull(passwordVariable, "passwordVariable");
      sources.add(b -> environmentSource(variable, passwordVariable, b.environment));
      return this;
    }

    /**
     * A JWKS over HTTP(S), typically another service's public keys. Checked again before its
     * {@code Cache-Control: max-age} runs out (conditionally, with {@code If-None-Match}), early
     * when a token names an unknown kid, and with exponential back-off after failures.
     */
    public Builder jwksUrl(URI url) {
      Objects.requireNonNull(url, "url");
      String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(java.util.Locale.ROOT);
      if (!scheme.equals("https") && !scheme.equals("http")) {
        throw new IllegalArgumentException("a JWKS URL must be http or https");
      }
      sources.add(b -> new HttpSource(url, b.http));
      return this;
    }

    /**
     * An in-memory HS256 key made at start, for development on one node: tokens do not survive
     * a restart and do not verify on other nodes, and the keyring says so in a warning.
     */
    public Builder ephemeralDevelopmentKey() {
      once("ephemeralDevelopmentKey");
      ephemeral = true;
      sources.add(b -> new FixedSource("ephemeral development key", () -> {
        LOG.log(System.Logger.Level.WARNING, "*** Sessionless is using an EPHEMERAL key made in memory: "
            + "sessions will not survive a restart and will not verify on any other node. "
            + "Configure a key source for anything but development. ***");
        return KeySet.of(TokenKey.generate("ephemeral-" + Long.toHexString(System.nanoTime()), Algorithm.HS256));
      }));
      return this;
    }

    /** How often JWKS files are checked for changes; default 5 s. */
    public Builder filePollInterval(Duration interval) {
      once("filePollInterval");
      filePoll = positive(interval, "filePollInterval");
      return this;
    }

    /** At most one early HTTP check per this interval on unknown kids; default 30 s. */
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

    /** HTTP timeout for the whole response, headers and body, to arrive; default 10 s. */
    public Builder httpReadTimeout(Duration timeout) {
      once("httpReadTimeout");
      http.readTimeout = positive(timeout, "httpReadTimeout");
      return this;
    }

    /** Bounds for the HTTP refresh interval derived from max-age; defaults 30 s and 1 h. */
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

    /** First delay of the exponential back-off after an HTTP failure; default 1 s. */
    public Builder httpBackoff(Duration first) {
      once("httpBackoff");
      http.minBackoff = positive(first, "httpBackoff");
      return this;
    }

    /**
     * How long an HTTP source's last good keys are served while it keeps failing; after that
     * they are dropped and tokens under them rejected. Default 24 h.
     */
    public Builder httpMaxStale(Duration maxStale) {
      once("httpMaxStale");
      http.maxStale = positive(maxStale, "httpMaxStale");
      return this;
    }

    /** Largest JWKS response accepted; default 1 MiB. */
    public Builder httpMaxResponseBytes(int bytes) {
      once("httpMaxResponseBytes");
      if (bytes < 256 || bytes > (16 << 20)) {
        throw new IllegalArgumentException("httpMaxResponseBytes must be 256 bytes to 16 MiB");
      }
      http.maxResponseBytes = bytes;
      return this;
    }

    /** The clock for lifecycles, stale bounds and rate limits; default UTC system clock. */
    public Builder clock(Clock clock) {
      once("clock");
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** Where {@link #environment(String)} reads variables; default {@link System#getenv(String)}. */
    public Builder environmentReader(Function<String, String> reader) {
      once("environmentReader");
      this.environment = Objects.requireNonNull(reader, "reader");
      return this;
    }

    /**
     * Loads every source once, synchronously, and starts the refresh thread.
     *
     * @throws KeyringException {@code CONFIGURATION} without sources or when they hold no keys,
     *     or the first source's failure reason when it cannot be loaded
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
      // Each build() makes sources of its own, with the options as they stand now: two
      // keyrings never share a source's state.
      List<Source> resolved = new ArrayList<>();
      for (Function<Builder, Source> make : sources) {
        resolved.add(make.apply(this));
      }
      Keyring keyring = new Keyring(this, resolved);
      keyring.start();
      return keyring;
    }
  }

  /** An environment variable source, read once at start through {@code env}. */
  private static Source environmentSource(String variable, String passwordVariable, Function<String, String> env) {
    String what = "environment variable " + variable;
    return new FixedSource(what, () -> {
      String value = env.apply(variable);
      if (value == null) {
        throw new KeyringException(Reason.UNAVAILABLE, what + " is not set");
      }
      KeyContent.Unlock unlock = KeyContent.Unlock.none();
      if (passwordVariable != null) {
        String password = env.apply(passwordVariable);
        if (password == null) {
          throw new KeyringException(Reason.UNAVAILABLE, "environment variable " + passwordVariable + " is not set");
        }
        unlock = KeyContent.Unlock.password(password.toCharArray());
      }
      return KeyContent.parse(value, unlock, true, what);
    });
  }
}
