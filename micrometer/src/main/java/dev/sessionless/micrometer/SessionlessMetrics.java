package dev.sessionless.micrometer;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.SessionlessListener;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.KeyStatus;
import dev.sessionless.keyring.Keyring;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToDoubleFunction;

/**
 * Counts what Sessionless does into a Micrometer {@link MeterRegistry}: set it as the listener of
 * the codec, the keyring and the filter, and {@link #watch(Keyring) watch} a keyring for per-key
 * gauges.
 *
 * <pre>{@code
 * SessionlessMetrics metrics = new SessionlessMetrics(registry);
 * Keyring keys = Keyring.builder().jwksFile(path).listener(metrics).maxTokenLifetime(ttl).build();
 * metrics.watch(keys);
 * TokenCodec codec = TokenCodec.builder().keys(keys).listener(metrics)...build();
 * }</pre>
 *
 * <p><b>Meters</b> (Micrometer's dot notation; a Prometheus registry writes {@code
 * sessionless_tokens_verified_total} and so on):
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th></tr>
 *   <tr><td>{@code sessionless.tokens.verified}</td><td>counter</td><td>{@code result}
 *       ({@code accepted}, {@code rejected}, {@code failed}: a failure on this side), {@code alg}
 *       ({@code unknown} when rejected), {@code reason} ({@code none} when accepted)</td></tr>
 *   <tr><td>{@code sessionless.tokens.cache}</td><td>counter</td><td>{@code result} ({@code
 *       hit}, {@code miss}: an accepted token that was verified afresh)</td></tr>
 *   <tr><td>{@code sessionless.tokens.encoded}</td><td>counter</td><td>{@code alg}</td></tr>
 *   <tr><td>{@code sessionless.tokens.size}</td><td>summary, bytes</td><td>{@code alg}</td></tr>
 *   <tr><td>{@code sessionless.keys.changes}</td><td>counter</td><td></td></tr>
 *   <tr><td>{@code sessionless.keys}</td><td>gauge</td><td>(keys in force)</td></tr>
 *   <tr><td>{@code sessionless.keys.source.checks}</td><td>counter</td><td>{@code source},
 *       {@code outcome} ({@code ok} or the failure's reason)</td></tr>
 *   <tr><td>{@code sessionless.keys.source.staleness}</td><td>time gauge</td><td>{@code source}:
 *       time since the source last answered well</td></tr>
 *   <tr><td>{@code sessionless.cookies.size}</td><td>summary, bytes</td><td></td></tr>
 *   <tr><td>{@code sessionless.cookies.chunks}</td><td>summary</td><td></td></tr>
 *   <tr><td>{@code sessionless.sessions.rejected}</td><td>counter</td><td>{@code result}
 *       ({@code rejected}, {@code failed}), {@code reason}</td></tr>
 *   <tr><td>{@code sessionless.sessions.changes.dropped}</td><td>counter</td><td>{@code what}
 *       ({@code attribute}, {@code in-place}, {@code invalidate})</td></tr>
 *   <tr><td>{@code sessionless.keys.verifications}</td><td>function counter</td><td>{@code kid}
 *       (watched keyring)</td></tr>
 *   <tr><td>{@code sessionless.keys.safe.to.retire}, {@code sessionless.keys.safe.to.delete}</td>
 *       <td>gauge, 1 or 0</td><td>{@code kid} (watched keyring)</td></tr>
 * </table>
 *
 * <p><b>Cardinality.</b> No token, user or session identifier is ever a tag. {@code kid} appears
 * only on the per-key meters of a watched keyring, whose key count is bounded by its
 * configuration; their meters are removed when a key leaves. {@code source} is a configured
 * source's description (a path, a variable name, a URL without its query).
 *
 * <p>Thread-safe. Counting is a map look-up and an increment; no allocation once every
 * combination of tags has been seen.
 */
public final class SessionlessMetrics implements SessionlessListener {
  private final MeterRegistry registry;
  private final Map<Algorithm, Counter> accepted = new EnumMap<>(Algorithm.class);
  private final Map<Algorithm, Counter> encoded = new EnumMap<>(Algorithm.class);
  private final Map<Algorithm, DistributionSummary> sizes = new EnumMap<>(Algorithm.class);
  private final Map<TokenException.Reason, Counter> rejected = new EnumMap<>(TokenException.Reason.class);
  private final Map<TokenException.Reason, Counter> sessionsRejected = new EnumMap<>(TokenException.Reason.class);
  private final Counter cacheHits;
  private final Counter cacheMisses;
  private final Counter keyChanges;
  private final AtomicInteger keyCount = new AtomicInteger();
  private final DistributionSummary cookieSize;
  private final DistributionSummary cookieChunks;
  private final Map<String, Counter> sourceChecks = new ConcurrentHashMap<>();
  private final Map<String, Counter> changesDropped = new ConcurrentHashMap<>();
  private final Map<String, Instant> lastSuccess = new ConcurrentHashMap<>();
  private final Map<String, List<Meter>> perKid = new ConcurrentHashMap<>();
  private volatile Keyring watched;

  /**
   * Registers the fixed meters in {@code registry}; the tagged ones follow as their tags are seen.
   */
  public SessionlessMetrics(MeterRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
    for (Algorithm a : Algorithm.values()) {
      accepted.put(a, Counter.builder("sessionless.tokens.verified").description("Tokens decoded, by result")
          .tags("result", "accepted", "alg", a.joseName(), "reason", "none").register(registry));
      encoded.put(a, Counter.builder("sessionless.tokens.encoded").description("Tokens made")
          .tags("alg", a.joseName()).register(registry));
      sizes.put(a, DistributionSummary.builder("sessionless.tokens.size").description("Length of tokens made")
          .baseUnit("bytes").tags("alg", a.joseName()).register(registry));
    }
    for (TokenException.Reason r : TokenException.Reason.values()) {
      String result = r.isRejection() ? "rejected" : "failed";
      String reason = r.name().toLowerCase(Locale.ROOT);
      rejected.put(r, Counter.builder("sessionless.tokens.verified").description("Tokens decoded, by result")
          .tags("result", result, "alg", "unknown", "reason", reason).register(registry));
      sessionsRejected.put(r, Counter.builder("sessionless.sessions.rejected")
          .description("Session tokens the filter refused").tags("result", result, "reason", reason)
          .register(registry));
    }
    cacheHits = Counter.builder("sessionless.tokens.cache").description("Verification cache look-ups of accepted tokens")
        .tag("result", "hit").register(registry);
    cacheMisses = Counter.builder("sessionless.tokens.cache").description("Verification cache look-ups of accepted tokens")
        .tag("result", "miss").register(registry);
    keyChanges = Counter.builder("sessionless.keys.changes").description("Changes of the keys in force")
        .register(registry);
    Gauge.builder("sessionless.keys", keyCount, AtomicInteger::get).description("Keys in force").register(registry);
    cookieSize = DistributionSummary.builder("sessionless.cookies.size").description("Session cookies written")
        .baseUnit("bytes").register(registry);
    cookieChunks = DistributionSummary.builder("sessionless.cookies.chunks")
        .description("Cookies a session token was split into").register(registry);
  }

  /**
   * Adds per-key meters for {@code keyring} ({@code kid}-tagged: verifications, safe to retire,
   * safe to delete, read from {@link Keyring#status()} when the registry is read), kept in step
   * with its keys as long as this object is also its listener.
   *
   * @return this
   */
  public SessionlessMetrics watch(Keyring keyring) {
    this.watched = Objects.requireNonNull(keyring, "keyring");
    keyCount.set(keyring.current().keys().size());
    syncKids(keyring.current());
    return this;
  }

  @Override
  public void tokenVerified(String kid, Algorithm algorithm, boolean cacheHit) {
    accepted.get(algorithm).increment();
    (cacheHit ? cacheHits : cacheMisses).increment();
  }

  @Override
  public void tokenRejected(TokenException.Reason reason) {
    rejected.get(reason).increment();
  }

  @Override
  public void tokenEncoded(String kid, Algorithm algorithm, int length) {
    encoded.get(algorithm).increment();
    sizes.get(algorithm).record(length);
  }

  @Override
  public void keySetChanged(KeySet previous, KeySet current) {
    keyChanges.increment();
    keyCount.set(current.keys().size());
    if (watched != null) {
      syncKids(current);
    }
  }

  @Override
  public void keySourceChecked(String source, String outcome, Instant lastSuccess) {
    sourceChecks.computeIfAbsent(source + '\u0000' + outcome, k -> Counter.builder("sessionless.keys.source.checks")
        .description("Checks of a key source, by outcome").tags("source", source, "outcome", outcome)
        .register(registry)).increment();
    if (this.lastSuccess.put(source, lastSuccess) == null) {
      TimeGauge.builder("sessionless.keys.source.staleness", this, TimeUnit.MILLISECONDS, m -> m.staleness(source))
          .description("Time since the key source last answered well").tag("source", source).register(registry);
    }
  }

  private double staleness(String source) {
    Instant last = lastSuccess.get(source);
    if (last == null || last.equals(Instant.MIN)) {
      return Double.NaN;
    }
    return Math.max(0, registry.config().clock().wallTime() - last.toEpochMilli());
  }

  @Override
  public void cookieWritten(int bytes, int chunks) {
    cookieSize.record(bytes);
    cookieChunks.record(chunks);
  }

  @Override
  public void sessionRejected(TokenException.Reason reason) {
    sessionsRejected.get(reason).increment();
  }

  /** Counts {@code sessionless.sessions.changes.dropped}, tagged {@code what}. */
  @Override
  public void sessionChangeDropped(String what) {
    changesDropped.computeIfAbsent(what, w -> Counter.builder("sessionless.sessions.changes.dropped")
        .description("Session changes made after the response committed, so never sent").tag("what", w)
        .register(registry)).increment();
  }

  /** Registers meters for new kids and removes those of kids that left. */
  private synchronized void syncKids(KeySet keys) {
    Set<String> now = new HashSet<>();
    for (TokenKey k : keys.keys()) {
      now.add(k.kid());
      perKid.computeIfAbsent(k.kid(), this::kidMeters);
    }
    for (String kid : new ArrayList<>(perKid.keySet())) {
      if (!now.contains(kid)) {
        for (Meter m : perKid.remove(kid)) {
          registry.remove(m);
        }
      }
    }
  }

  private List<Meter> kidMeters(String kid) {
    Tags tags = Tags.of("kid", kid);
    List<Meter> meters = new ArrayList<>();
    meters.add(io.micrometer.core.instrument.FunctionCounter.builder("sessionless.keys.verifications", this,
        m -> m.key(kid).map(KeyStatus::verifications).orElse(0L))
        .description("Tokens this node verified with the key").tags(tags).register(registry));
    meters.add(gauge("sessionless.keys.safe.to.retire", "1 when the key may stop signing", kid, KeyStatus::safeToRetire));
    meters.add(gauge("sessionless.keys.safe.to.delete",
        "1 when no token under the key can be valid and this node saw none for the traffic window", kid,
        KeyStatus::safeToDelete));
    return meters;
  }

  private Gauge gauge(String name, String description, String kid, java.util.function.Predicate<KeyStatus> p) {
    ToDoubleFunction<SessionlessMetrics> f = m -> m.key(kid).map(s -> p.test(s) ? 1.0 : 0.0).orElse(Double.NaN);
    return Gauge.builder(name, this, f).description(description).tag("kid", kid).register(registry);
  }

  private Optional<KeyStatus> key(String kid) {
    Keyring k = watched;
    if (k == null) {
      return Optional.empty();
    }
    for (KeyStatus s : k.status().keys()) {
      if (s.kid().equals(kid)) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
  }

  @Override
  public String toString() {
    return "SessionlessMetrics[" + registry.getClass().getSimpleName() + "]";
  }
}
