package dev.sessionless.session.internal;

import dev.sessionless.core.RevocationStore;
import dev.sessionless.core.SessionlessListener;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.internal.SafeListener;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/** The filter's immutable configuration, checked by the public builder. */
public final class Settings {
  final TokenCodec codec;
  final AttributeCodec attributes;
  final Carrier carrier;
  final Clock clock;
  final int maxInactiveSeconds;
  final long absoluteLifetimeSeconds;
  final double renewalFraction;
  /** A stored attribute that no longer reads back starts a fresh session (else it is dropped). */
  final boolean newSessionOnBadAttribute;
  final FilterLog log;
  /** Where {@code invalidate()} records the session as revoked; {@code null} if nowhere. */
  final RevocationStore revocations;
  /** Told of cookies written and sessions refused; guarded, never throws. */
  final SessionlessListener listener;
  /** What the in-place check knows of attribute classes (see {@link Snapshot}). */
  final ValueWalker walker = new ValueWalker();

  /** How much state {@code setAttribute} may build up. */
  final StateBudget budget;

  /**
   * Settings with a revocation store that {@code invalidate()} writes to ({@code null} if none),
   * a listener and a state budget; every value already validated.
   */
  public Settings(TokenCodec codec, AttributeCodec attributes, Carrier carrier, Clock clock,
      int maxInactiveSeconds, long absoluteLifetimeSeconds, double renewalFraction,
      boolean newSessionOnBadAttribute, RevocationStore revocations, SessionlessListener listener,
      StateBudget budget) {
    this(codec, attributes, carrier, clock, maxInactiveSeconds, absoluteLifetimeSeconds, renewalFraction,
        newSessionOnBadAttribute, revocations, listener, budget, System.getLogger(FilterLog.LOGGER));
  }

  /**
   * As {@link #Settings(TokenCodec, AttributeCodec, Carrier, Clock, int, long, double, boolean,
   * RevocationStore, SessionlessListener, StateBudget)}, telling operators on {@code log}: the
   * adapter's own logger, so an application reads and tunes it under the adapter's name.
   */
  public Settings(TokenCodec codec, AttributeCodec attributes, Carrier carrier, Clock clock,
      int maxInactiveSeconds, long absoluteLifetimeSeconds, double renewalFraction,
      boolean newSessionOnBadAttribute, RevocationStore revocations, SessionlessListener listener,
      StateBudget budget, System.Logger log) {
    this.budget = budget;
    this.revocations = revocations;
    this.listener = SafeListener.wrap(listener);
    this.codec = codec;
    this.attributes = attributes;
    this.carrier = carrier;
    this.clock = clock;
    this.maxInactiveSeconds = maxInactiveSeconds;
    this.absoluteLifetimeSeconds = absoluteLifetimeSeconds;
    this.renewalFraction = renewalFraction;
    this.newSessionOnBadAttribute = newSessionOnBadAttribute;
    this.log = new FilterLog(clock, log);
    SessionIds.seed(); // its one entropy read here, at build, not on an event loop
  }

  /** Reports the token cookies among {@code headers} just written (not the ones clearing stale chunks). */
  void cookiesWritten(List<String> headers) {
    if (listener == SessionlessListener.NONE || !carrier.isCookie()) {
      return;
    }
    int bytes = 0;
    int chunks = 0;
    for (String h : headers) {
      if (!h.contains("; Max-Age=0;")) {
        bytes += h.length();
        chunks++;
      }
    }
    listener.cookieWritten(bytes, chunks);
  }

  /** The clock expiry and renewal follow. */
  public Clock clock() {
    return clock;
  }

  /** The longest a session may live from its creation, however active. */
  public Duration absoluteLifetime() {
    return Duration.ofSeconds(absoluteLifetimeSeconds);
  }

  /** Where {@code invalidate()} and logout-everywhere record revocations; {@code null} if nowhere. */
  public RevocationStore revocations() {
    return revocations;
  }

  /** Writes any log summary that is due; called once per request. */
  public void tick() {
    log.tick();
  }
}
