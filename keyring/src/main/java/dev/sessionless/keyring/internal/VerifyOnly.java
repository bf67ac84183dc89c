package dev.sessionless.keyring.internal;

import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What a verify-only source (every HTTP JWKS, and any source marked so) may hand the keyring:
 * keys that verify and never sign. Private parts are removed (a key that only verifies never
 * needs one); secret ({@code oct}) keys are dropped unless the operator accepted them for this
 * source, and an accepted one is retired from the start, so it is never chosen to sign. Public
 * keys cannot sign anyway and keep their lifecycle as published.
 */
public final class VerifyOnly {
  /** The retirement of an accepted secret key that carries no activation: before every clock. */
  private static final Instant RETIRED_FROM_THE_START = Instant.MIN;

  private final boolean acceptSecretKeys;

  /** A policy; {@code acceptSecretKeys} keeps {@code oct} keys (verify-only) instead of dropping them. */
  public VerifyOnly(boolean acceptSecretKeys) {
    this.acceptSecretKeys = acceptSecretKeys;
  }

  /** The outcome of {@link #apply}: the keys kept, and the kids of what was dropped or stripped. */
  public static final class Result {
    /** The keys this source may contribute. */
    public final KeySet keys;
    /** Kids of secret keys dropped. */
    public final List<String> droppedSecretKeys;
    /** Kids of keys whose private part was removed. */
    public final List<String> droppedPrivateParts;

    Result(KeySet keys, List<String> droppedSecretKeys, List<String> droppedPrivateParts) {
      this.keys = keys;
      this.droppedSecretKeys = List.copyOf(droppedSecretKeys);
      this.droppedPrivateParts = List.copyOf(droppedPrivateParts);
    }

    /** A one-line account of what was dropped (kids only), or empty when nothing was. */
    public String note() {
      StringBuilder sb = new StringBuilder();
      if (!droppedSecretKeys.isEmpty()) {
        sb.append("secret key(s) ").append(droppedSecretKeys).append(" dropped");
      }
      if (!droppedPrivateParts.isEmpty()) {
        sb.append(sb.length() == 0 ? "" : "; ").append("private part(s) of ").append(droppedPrivateParts)
            .append(" dropped");
      }
      return sb.toString();
    }
  }

  /** Restricts {@code keys} to what a verify-only source may contribute. */
  public Result apply(KeySet keys) {
    List<TokenKey> kept = new ArrayList<>();
    List<String> secrets = new ArrayList<>();
    List<String> privates = new ArrayList<>();
    for (TokenKey k : keys.keys()) {
      if (k.algorithm().isSymmetric()) {
        if (acceptSecretKeys) {
          kept.add(neverSigns(k));
        } else {
          secrets.add(k.kid());
        }
      } else if (k.canSign()) {
        privates.add(k.kid());
        kept.add(k.publicOnly());
      } else {
        kept.add(k);
      }
    }
    return new Result(KeySet.of(kept), secrets, privates);
  }

  /**
   * How {@code key} looks when it comes from a verify-only source: its public part, or (a secret
   * key) retired from the start. Compares a local key with the same key seen through a
   * verify-only source.
   */
  public static TokenKey view(TokenKey key) {
    return key.algorithm().isSymmetric() ? neverSigns(key) : key.canSign() ? key.publicOnly() : key;
  }

  /**
   * A secret key that verifies as before but never signs: it retires when it activates (or, with
   * no activation, before any clock), which the lifecycle order allows and every node reads alike.
   */
  static TokenKey neverSigns(TokenKey k) {
    Instant retires = k.activates().orElse(RETIRED_FROM_THE_START);
    if (k.retires().isPresent() && k.retires().get().isBefore(retires)) {
      retires = k.retires().get();
    }
    return k.withLifecycle(k.published().orElse(null), k.activates().orElse(null), retires,
        k.expires().orElse(null));
  }
}
