package dev.sessionless.session.internal;

import dev.sessionless.core.RevocationStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * What a logout writes to the {@link RevocationStore}: the session ids {@code invalidate()}
 * revokes ("logout that holds"), and a subject logged out everywhere. The ids are worked out
 * under the session's lock; {@link #write()} is called once it is released, because the store
 * may be across the network (Redis): no other thread of the request waits behind that round
 * trip, and a virtual thread waiting on it is not pinned by a monitor (before JDK 24).
 */
public final class LogoutRevocation {
  /**
   * How long past a token's last possible expiry a revocation is kept: more than any reader's
   * clock skew (the codec accepts at most 10 minutes).
   */
  public static final Duration MARGIN = Duration.ofMinutes(10);

  private final RevocationStore store;
  private final String tokenId;
  /** The session's new id if a token with it went out in this request, else {@code null}. */
  private final String newId;
  private final Instant until;

  private LogoutRevocation(RevocationStore store, String tokenId, String newId, Instant until) {
    this.store = store;
    this.tokenId = tokenId;
    this.newId = newId;
    this.until = until;
  }

  /**
   * The revocation of a session that ends now. Its tokens (also one a parallel request renewed
   * just now) expire by its absolute end or by now plus its inactivity interval, whichever is
   * first, and no earlier than the incoming token's {@code exp}.
   *
   * @param tokenExp the incoming token's {@code exp}, millis
   * @param newId the session's id if it changed in this request and a token with it was written,
   *     else {@code null}
   */
  static LogoutRevocation ofSession(Settings settings, TokenSession s, String tokenId, long tokenExp,
      String newId) {
    long now = settings.clock.millis();
    long absoluteEnd = s.created + settings.absoluteLifetimeSeconds * 1000L;
    long lastExp = s.maxInactive > 0 ? Math.min(absoluteEnd, now + s.maxInactive * 1000L) : absoluteEnd;
    Instant until = Instant.ofEpochMilli(Math.max(lastExp, tokenExp)).plus(MARGIN);
    return new LogoutRevocation(settings.revocations, tokenId, newId, until);
  }

  /**
   * Writes the revocation: a call to the store, which may be across the network, so a reactive
   * caller runs it off the event loop. The store's exception travels on: an outage ({@code
   * REVOCATION_UNAVAILABLE}) is answered 503 so the client can retry, and the session has ended
   * here all the same.
   */
  public void write() {
    store.revokeSession(tokenId, until);
    if (newId != null) {
      store.revokeSession(newId, until);
    }
  }

  /**
   * Logs {@code subject} out everywhere, with the store and lifetime of {@code settings}. Holds
   * no lock; writes the store (may block).
   *
   * @throws IllegalStateException if the settings have no revocation store
   */
  public static void logOutEverywhere(Settings settings, String subject) {
    if (settings.revocations == null) {
      throw new IllegalStateException("logOutEverywhere needs a revocation store: configure the filter with"
          + " SessionlessFilterBuilder.revocation(RevocationStore) or the init parameter revocation");
    }
    revokeSubject(settings.revocations, subject, settings.clock.instant(),
        Duration.ofSeconds(settings.absoluteLifetimeSeconds));
  }

  /**
   * Logs {@code subject} out everywhere: its sessions authenticated before {@code now} are
   * rejected by every reader of {@code store} until the longest session could have lived.
   */
  public static void revokeSubject(RevocationStore store, String subject, Instant now, Duration absoluteLifetime) {
    Objects.requireNonNull(store, "store");
    store.revokeSubject(subject, now, now.plus(absoluteLifetime).plus(MARGIN));
  }
}
