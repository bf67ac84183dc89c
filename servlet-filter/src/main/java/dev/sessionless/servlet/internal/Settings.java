package dev.sessionless.servlet.internal;

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

  /** Settings; every value already validated. */
  public Settings(TokenCodec codec, AttributeCodec attributes, Carrier carrier, Clock clock,
      int maxInactiveSeconds, long absoluteLifetimeSeconds, double renewalFraction,
      boolean newSessionOnBadAttribute) {
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
