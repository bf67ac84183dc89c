package dev.sessionless.session.internal;

import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.internal.StateAccess;
import java.util.Map;

/**
 * The session the request came with: its token decoded, checked against the filter's rules
 * (absolute lifetime, attribute types) and turned into a {@link TokenSession}, or the reason
 * it was refused. The read half of {@link ExchangeSession}, which calls it once per request.
 *
 * <p>Only a client's bad token is a rejection. Anything else thrown here (a key source or clock
 * that fails, a revocation source that cannot answer, our own bug) is a failure on this side,
 * and travels to {@link ExchangeSession#load()}, which logs and counts it.
 */
final class IncomingSession {
  /** What the carrier found: the token's place, or none. */
  final Carrier.Incoming incoming;
  /** The verified token, or {@code null} if none or refused. */
  SessionToken token;
  /** The session read from it, or {@code null} if none or refused. */
  TokenSession session;
  /** Why the token was refused, or {@code null}. */
  TokenException.Reason rejection;
  /**
   * The refusal was already reported, as a bad attribute (policy {@code new-session}), not as a
   * rejected token.
   */
  boolean reported;
  /** The token is far enough into its life to be renewed by a read-only request. */
  boolean renewalPending;

  private IncomingSession(Carrier.Incoming incoming) {
    this.incoming = incoming;
  }

  private IncomingSession refused(TokenException.Reason reason) {
    rejection = reason;
    return this;
  }

  /** Reads the request's token, if it carries one. */
  static IncomingSession read(ExchangeSession owner, Settings settings) {
    Carrier carrier = settings.carrier;
    IncomingSession in = new IncomingSession(carrier.read(owner.request(), carrier.maxTokenLength()));
    if (!in.incoming.present()) {
      return in;
    }
    if (in.incoming.problem != null) {
      return in.refused(in.incoming.problem);
    }
    SessionToken t;
    StoredState stored;
    try {
      t = settings.codec.decode(in.incoming.token, in.incoming.start, in.incoming.end);
      stored = StoredState.of(t); // core's bytes and index, not a copy parsed again
    } catch (TokenException e) {
      if (!e.reason().isRejection()) {
        throw e; // a failure on this side, not the client's token
      }
      // A bad token; or our own signature vouches for it, but not in this filter's format.
      return in.refused(e.reason());
    }
    long now = settings.clock.millis();
    if (now >= stored.created + settings.absoluteLifetimeSeconds * 1000L) {
      return in.refused(TokenException.Reason.EXPIRED);
    }
    TokenSession s = new TokenSession(owner, t.id(), stored.created, StateAccess.issuedAtSecond(t) * 1000L,
        stored.maxInactive, false);
    for (Map.Entry<String, String> e : stored.types.entrySet()) {
      AttributeEntry entry = new AttributeEntry(e.getValue(), settings.attributes.resolve(e.getValue()));
      int[] span = stored.spans.get(e.getKey());
      entry.json(stored.bytes, span[0], span[1] - span[0]);
      boolean fits = entry.type != null;
      if (fits && settings.newSessionOnBadAttribute) {
        fits = s.read(e.getKey(), entry); // every value, now: a bad one must not surface later
      }
      if (!fits) {
        if (settings.newSessionOnBadAttribute) {
          settings.log.badAttribute(e.getKey(), entry.typeName, entry.problem(settings.attributes),
              "started a fresh session (bad-attribute policy new-session)");
          in.reported = true;
          return in.refused(TokenException.Reason.STATE_MAPPING);
        }
        dropped(settings, e.getKey(), entry);
        s.dirty = true; // the next token leaves it out
        continue;
      }
      s.entries.put(e.getKey(), entry);
    }
    in.token = t;
    in.session = s;
    long iat = StateAccess.issuedAtSecond(t); // no Instant per request
    long life = StateAccess.expiresAtSecond(t) - iat;
    in.renewalPending = (now / 1000 - iat) >= settings.renewalFraction * life;
    return in;
  }

  /** A stored attribute that no longer reads back was left out of the session. */
  static void dropped(Settings settings, String name, AttributeEntry entry) {
    settings.log.badAttribute(name, entry.typeName, entry.problem(settings.attributes),
        "dropped it from the session (bad-attribute policy drop)");
  }
}
