package dev.sessionless.gateway;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.spring.boot.InternalTokenSigningKeys;
import dev.sessionless.spring.boot.PropagationSendProperties;
import java.time.Instant;
import java.util.List;
import java.util.TreeSet;

/**
 * Loads the gateway's signing keys from {@code sessionless.propagation.send.keys-file} with the
 * rules of the servlet side's sending keys: ES256 or EdDSA only, the algorithm of the file's
 * signing key unless {@code algorithm} names one.
 */
final class GatewaySigningKeys {
  private static final String SEND = "sessionless.propagation.send.";

  private GatewaySigningKeys() {}

  /**
   * The signing keys, loaded now and re-read when the file changes.
   *
   * @throws IllegalStateException naming the property when the file is missing, unreadable,
   *     holds a symmetric key, or has no key that signs now
   */
  static InternalTokenSigningKeys load(PropagationSendProperties p) {
    if (p.getKeysFile() == null) {
      throw new IllegalStateException(SEND + "issuer is set, so " + SEND + "keys-file is required: a JWKS file with"
          + " the gateway's ES256 or EdDSA signing key");
    }
    Keyring keyring;
    try {
      keyring = Keyring.builder().jwksFile(p.getKeysFile()).build();
    } catch (RuntimeException e) {
      throw new IllegalStateException("cannot load " + SEND + "keys-file (" + e.getMessage() + ")", e);
    }
    try {
      KeySet keys = keyring.current();
      TreeSet<String> symmetric = new TreeSet<>();
      for (TokenKey k : keys.keys()) {
        if (k.algorithm().isSymmetric()) {
          symmetric.add(k.kid());
        }
      }
      if (!symmetric.isEmpty()) {
        throw new IllegalStateException(SEND + "keys-file holds symmetric key(s) " + symmetric + ": internal tokens"
            + " are signed with ES256 or EdDSA only, since every service that verifies a shared secret could mint");
      }
      return new InternalTokenSigningKeys(keyring, algorithm(p.getAlgorithm(), keys));
    } catch (RuntimeException e) {
      keyring.close();
      throw e;
    }
  }

  private static Algorithm algorithm(String name, KeySet keys) {
    List<Algorithm> candidates = List.of(Algorithm.ES256, Algorithm.EDDSA);
    if (name != null) {
      candidates = candidates.stream()
          .filter(a -> a.joseName().equalsIgnoreCase(name.trim()) || a.name().equalsIgnoreCase(name.trim())).toList();
      if (candidates.isEmpty()) {
        throw new IllegalStateException(SEND + "algorithm is '" + name + "': ES256 or EdDSA");
      }
    }
    Instant now = Instant.now();
    for (Algorithm a : candidates) {
      if (keys.signingKey(a, now).isPresent()) {
        return a;
      }
    }
    throw new IllegalStateException(SEND + "keys-file has no " + (name != null ? name : "ES256 or EdDSA")
        + " key that signs now (with its private part, active and not retired)");
  }
}
