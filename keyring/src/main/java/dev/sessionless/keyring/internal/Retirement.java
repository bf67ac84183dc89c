package dev.sessionless.keyring.internal;

import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * When a key may stop signing (retire) and when it may be deleted, from its lifecycle alone. The
 * keyring adds the traffic it saw; the {@code keyring} CLI, which sees no traffic, uses this only.
 *
 * <p>A key signs at the latest until it retires or expires ({@link #signingEnds}); a token it
 * signed then lives at most the maximum token lifetime, plus the clock skew any codec may allow
 * (10 minutes, {@link #SKEW}); and it verifies nothing after its own expiry. So once {@code
 * min(expires, signingEnds + lifetime + skew)} has passed, no token it signed can still be
 * accepted: deleting it rejects nothing that would otherwise pass.
 */
public final class Retirement {
  /** The largest clock skew a codec accepts: assumed, so the answer holds whatever the codecs use. */
  public static final Duration SKEW = Duration.ofMinutes(10);

  private Retirement() {}

  /** When the key stops (or stopped) signing by its lifecycle; empty if it never stops. */
  public static Optional<Instant> signingEnds(TokenKey k) {
    Optional<Instant> r = k.retires();
    Optional<Instant> e = k.expires();
    if (r.isPresent() && e.isPresent()) {
      return Optional.of(r.get().isBefore(e.get()) ? r.get() : e.get());
    }
    return r.isPresent() ? r : e;
  }

  /**
   * From when deleting the key rejects no token that would otherwise be accepted; empty if never
   * (a key with no end to its signing and no expiry).
   */
  public static Optional<Instant> safeToDeleteFrom(TokenKey k, Duration maxTokenLifetime) {
    Optional<Instant> byTokens = signingEnds(k).map(i -> i.plus(maxTokenLifetime).plus(SKEW));
    Optional<Instant> exp = k.expires();
    if (byTokens.isPresent() && exp.isPresent()) {
      return Optional.of(byTokens.get().isBefore(exp.get()) ? byTokens.get() : exp.get());
    }
    return byTokens.isPresent() ? byTokens : exp;
  }

  /**
   * Whether the key may stop signing at {@code now}: it does not sign now (pending, retired, a
   * public key), or another key of its algorithm would sign in its place.
   */
  public static boolean safeToRetire(TokenKey k, KeySet keys, Instant now) {
    Optional<TokenKey> signer = keys.signingKey(k.algorithm(), now);
    if (signer.isEmpty() || signer.get() != k) {
      return true;
    }
    List<TokenKey> others = new ArrayList<>(keys.keys());
    others.remove(k);
    return KeySet.of(others).signingKey(k.algorithm(), now).isPresent();
  }
}
