package dev.sessionless.core.internal;

import dev.sessionless.core.KeySet;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenKey;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * The codec's own line to a key source that watches how its keys are used (the keyring counts
 * verifications for "safe to delete" and encryptions against each AES-GCM key's budget).
 *
 * <p>Not public API, on purpose: were these calls on the public {@link KeySource}, any code
 * holding the key source could make a key look busy, or spend an AES-GCM key's encryption budget
 * and so stop it from encrypting. Here, in a package exported only to the sibling modules, only
 * the codec calls them. A key source offers its hook through {@link #register}; the codec finds
 * it with {@link #of}. Implementations must be thread-safe and cheap: both calls are on the
 * request path.
 */
public interface KeyUsageHook {
  /** The hook of a key source that counts nothing. */
  KeyUsageHook NONE = new KeyUsageHook() {
    @Override
    public TokenKey signing(KeySet set, TokenKey chosen, long nowSeconds) {
      return chosen;
    }

    @Override
    public void verified(TokenKey key) {}
  };

  /**
   * Told that {@code chosen}, the key {@code set} picks to sign or encrypt at {@code nowSeconds},
   * is about to make one token; counts it and returns the key to use: {@code chosen}, or another
   * key of its algorithm that may sign now when {@code chosen} has spent its budget.
   *
   * @throws TokenException a reason that is no rejection (an outage of this side) when no key
   *     of the algorithm may be used
   */
  TokenKey signing(KeySet set, TokenKey chosen, long nowSeconds);

  /** Told that {@code key} verified a token (freshly or from the verification cache). */
  void verified(TokenKey key);

  /**
   * Makes the hooks of some key sources findable: {@code resolver} answers a source's hook, or
   * {@code null} for a source it does not know. Called once per implementing class (from its
   * static initializer, so it runs before any instance reaches a codec).
   */
  static void register(Function<KeySource, KeyUsageHook> resolver) {
    Registry.RESOLVERS.add(Objects.requireNonNull(resolver, "resolver"));
  }

  /** The hook of {@code source}, or {@link #NONE}. Called once per codec, when it is built. */
  static KeyUsageHook of(KeySource source) {
    for (Function<KeySource, KeyUsageHook> r : Registry.RESOLVERS) {
      KeyUsageHook h = r.apply(source);
      if (h != null) {
        return h;
      }
    }
    return NONE;
  }

  /** Holds the resolvers (an interface's fields would all be public constants). */
  final class Registry {
    private static final List<Function<KeySource, KeyUsageHook>> RESOLVERS = new CopyOnWriteArrayList<>();

    private Registry() {}
  }
}
