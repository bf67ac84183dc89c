package dev.sessionless.keyring;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.SessionlessListener;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.keyring.KeyringException.Reason;
import dev.sessionless.core.internal.KeyUsageHook;
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
 * <p><b>Sources.</b> {@link KeyringBuilder#jwksFile(Path) JWKS files} are polled (real path through
 * every symbolic link, size, modification time and content hash) and reloaded on change,
 * including the atomic symlink swap of a Kubernetes Secret volume; {@link
 * KeyringBuilder#environment(String) environment variables} and {@link KeyringBuilder#keys(KeySet) key sets
 * given in code} are read once; {@link KeyringBuilder#jwksUrl(URI) HTTP JWKS URLs} are fetched
 * conditionally before their {@code Cache-Control: max-age} runs out. A source that fails keeps
 * its last good keys — a half-written or deleted file never replaces a good key set — and the
 * failure is logged and counted in {@link #status()}. An HTTP source that has failed for longer
 * than {@link KeyringBuilder#httpMaxStale(Duration)} has its keys taken out of the snapshot (logged
 * as an error): keys that cannot be confirmed for that long may have been withdrawn, so they no
 * longer verify. A token under one of them is not the client's fault, though: its decode fails
 * with {@code TokenException} reason {@code KEY_SOURCE_UNAVAILABLE}, an outage (the servlet
 * filter and the internal-token filter answer {@code 503} with {@code Retry-After}), never a
 * silent logout ({@code UNKNOWN_KEY}). The keys verify again after the next good fetch.
 *
 * <p><b>Composition.</b> The snapshot is the union of every source's keys, e.g. local signing
 * keys from a file plus another service's public keys over HTTP. When two sources hold different
 * keys under one kid, that is a configuration error, logged once as an error and shown in {@link
 * KeyringStatus#conflictingKeyIds()}; a local source wins over a verify-only one whatever the order,
 * otherwise the source added to the builder <em>first</em> wins, on every node alike.
 *
 * <p><b>Verify-only sources.</b> A document fetched over the network never chooses this node's
 * signing key and is not trusted with secrets: HTTP sources, and any source marked {@link
 * KeyringBuilder#verifyOnly()}, contribute public keys (private parts removed) and — only with {@link
 * KeyringBuilder#acceptSecretKeys()} — secret keys retired from the start, so none of their keys ever
 * signs; a plain {@code http} URL needs {@link KeyringBuilder#httpAllowInsecurePlainHttp(boolean)}.
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
 * most once per {@link KeyringBuilder#unknownKeyRefreshInterval(Duration)}, so random kids in forged
 * tokens cannot turn into a flood of requests.
 *
 * <p><b>Development.</b> With no source configured, {@link KeyringBuilder#build()} fails. For a single
 * development node, {@link KeyringBuilder#ephemeralDevelopmentKey()} makes a random key in memory and
 * logs a warning that tokens will neither survive a restart nor verify on another node.
 *
 * <p><b>Security.</b> No key material, password or URL query string appears in a log line, an
 * exception, {@link #toString()} or {@link #status()}. Logging goes through {@link
 * System.Logger} (logger {@code dev.sessionless.keyring.Keyring}).
 *
 * <p><b>Limits.</b> Environment variables and PEM files are read once. A JWKS file is noticed
 * within one poll interval of its change. A broken source is retried, never skipped: if the only
 * source is broken at start, {@code build()} fails (an HTTP source may be allowed to start
 * empty, see {@link KeyringBuilder#httpRequiredAtStart(boolean)}).
 *
 * <p>Thread-safe.
 */
public final class Keyring implements KeySource, AutoCloseable {
  static {
    // The codec's line to the usage counts (core.internal, not public API): only a codec over this
    // keyring may count a verification or spend an encryption, so no other code skews "safe to
    // delete" or exhausts a key's budget.
    KeyUsageHook.register(s -> s instanceof Keyring ? ((Keyring) s).usage : null);
  }

  private final List<Source> sources;
  private final Clock clock;
  private final KeyUsage usage;
  private final RefreshLoop refresh;
  private final SnapshotPublisher published;
  private final Duration maxTokenLifetime;
  private final Duration trafficWindow;
  private final Instant started;

  private Keyring(KeyringBuilder b, List<Source> sources) {
    this.sources = List.copyOf(sources);
    this.clock = b.clock;
    RefreshScheduler scheduler = b.scheduler.get();
    this.usage = new KeyUsage(b.clock, b.trafficWindow, b.encryptionBudget);
    this.refresh = new RefreshLoop(this.sources, b.clock, b.unknownKeyInterval, scheduler, usage,
        new KeyringEvents(SafeListener.wrap(b.listener)));
    this.published = refresh.published();
    this.maxTokenLifetime = b.maxTokenLifetime;
    this.trafficWindow = b.trafficWindow;
    this.started = b.clock.instant();
  }

  /** A builder; at least one source is required. */
  public static KeyringBuilder builder() {
    return new KeyringBuilder();
  }

  /** Makes the keyring of {@code b}'s resolved sources and starts its refresh thread. */
  static Keyring start(KeyringBuilder b, List<Source> sources) {
    Keyring keyring = new Keyring(b, sources);
    keyring.refresh.start();
    return keyring;
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
   * the unknown-key refresh interval ago (by this keyring's clock). Returns at once. The token
   * that named the kid is rejected, unless the kid is one of the keys an HTTP source dropped past
   * its {@linkplain KeyringBuilder#httpMaxStale(Duration) stale bound}: then this throws, and the
   * decode fails as an outage rather than a logout. Without HTTP sources, does nothing.
   *
   * @param kid the kid a token named; never logged (it comes from an unverified token)
   * @throws TokenException {@code KEY_SOURCE_UNAVAILABLE} if a source dropped the key {@code kid}
   *     past its stale bound and has not been read since
   */
  @Override
  public void unknownKeyId(String kid) {
    refresh.unknownKeyId();
    for (Source s : sources) {
      Source.State st = s.state();
      if (!st.staleKeyIds.isEmpty() && st.staleKeyIds.contains(kid)) {
        throw new TokenException(TokenException.Reason.KEY_SOURCE_UNAVAILABLE, "the token's key comes from "
            + s.describe() + ", which has not been read since " + st.lastSuccess + " (past its stale bound, "
            + "httpMaxStale): the key is not trusted until the source answers again; retry later, and "
            + "check that the JWKS URL is reachable");
      }
    }
  }

  /**
   * The diagnostics view: what each source did last, which keys are in force, and per key
   * whether it is safe to retire or delete ({@link KeyringStatus#keys()}). Never key material. Cheap
   * enough for a health endpoint.
   */
  public KeyringStatus status() {
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
    return new KeyringStatus(list, SnapshotPublisher.kids(keys), signing, published.conflicts(), refresh.refreshErrors(),
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
}
