package dev.sessionless.servlet.internal;

import dev.sessionless.core.RevocationStore;
import dev.sessionless.core.TokenCodec;
import java.time.Clock;

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

  /** Settings; every value already validated. */
  public Settings(TokenCodec codec, AttributeCodec attributes, Carrier carrier, Clock clock,
      int maxInactiveSeconds, long absoluteLifetimeSeconds, double renewalFraction,
      boolean newSessionOnBadAttribute) {
    this(codec, attributes, carrier, clock, maxInactiveSeconds, absoluteLifetimeSeconds, renewalFraction,
        newSessionOnBadAttribute, null);
  }

  /** Settings with a revocation store that {@code invalidate()} writes to; every value already validated. */
  public Settings(TokenCodec codec, AttributeCodec attributes, Carrier carrier, Clock clock,
      int maxInactiveSeconds, long absoluteLifetimeSeconds, double renewalFraction,
      boolean newSessionOnBadAttribute, RevocationStore revocations) {
    this.revocations = revocations;
    this.codec = codec;
    this.attributes = attributes;
    this.carrier = carrier;
    this.clock = clock;
    this.maxInactiveSeconds = maxInactiveSeconds;
    this.absoluteLifetimeSeconds = absoluteLifetimeSeconds;
    this.renewalFraction = renewalFraction;
    this.newSessionOnBadAttribute = newSessionOnBadAttribute;
    this.log = new FilterLog(clock);
  }

  /** Writes any log summary that is due; called once per request. */
  public void tick() {
    log.tick();
  }
}
