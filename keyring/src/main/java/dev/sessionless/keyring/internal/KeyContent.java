package dev.sessionless.keyring.internal;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.core.internal.Base64Url;
import dev.sessionless.core.internal.KeyIds;
import dev.sessionless.keyring.EncryptedJwks;
import dev.sessionless.keyring.KeyringException;
import dev.sessionless.keyring.KeyringException.Reason;
import java.util.Arrays;
import java.util.Map;

/** Turns the text of a key file, variable or response into a key set. */
public final class KeyContent {
  /** Shortest secret accepted from a bare base64url value, in bytes. */
  public static final int MIN_SECRET_BYTES = 32;

  private KeyContent() {}

  /** How to open an encrypted key set: a password, a key-encryption key, or neither. */
  public static final class Unlock {
    final char[] password;
    final byte[] kek;

    private Unlock(char[] password, byte[] kek) {
      this.password = password;
      this.kek = kek;
    }

    /** No secret: an encrypted key set is refused. */
    public static Unlock none() {
      return new Unlock(null, null);
    }

    /** A password (PBES2). */
    public static Unlock password(char[] password) {
      return new Unlock(password.clone(), null);
    }

    /** A 32-byte key-encryption key (A256KW). */
    public static Unlock kek(byte[] kek) {
      return new Unlock(null, kek.clone());
    }

    @Override
    public String toString() {
      return password != null ? "Unlock[password]" : kek != null ? "Unlock[kek]" : "Unlock[none]";
    }
  }

  /**
   * Reads a JWKS, an encrypted JWKS or — if {@code allowBareSecret} — one base64url secret. With
   * a password or key-encryption key configured, only an encrypted JWKS is accepted.
   *
   * @param what names the source in messages (never its content)
   * @throws KeyringException {@code MALFORMED}, {@code DECRYPTION_FAILED} or {@code CONFIGURATION}
   */
  public static KeySet parse(String text, Unlock unlock, boolean allowBareSecret, String what) {
    String t = text.strip();
    if (t.isEmpty()) {
      throw new KeyringException(Reason.MALFORMED, what + " is empty");
    }
    if (EncryptedJwks.isEncrypted(t)) {
      if (unlock.password != null) {
        return nonEmpty(EncryptedJwks.decrypt(t, unlock.password), what);
      } else if (unlock.kek != null) {
        return nonEmpty(EncryptedJwks.decrypt(t, unlock.kek), what);
      }
      throw new KeyringException(Reason.CONFIGURATION,
          what + " is encrypted; configure its password or key-encryption key");
    }
    if (unlock.password != null || unlock.kek != null) {
      // Encryption also vouches for the keys: whoever can write the file but lacks the secret
      // must not be able to slip in keys of their own as plain JSON.
      throw new KeyringException(Reason.MALFORMED,
          what + " is not encrypted although a password or key-encryption key is configured for it");
    }
    if (t.startsWith("{")) {
      try {
        return nonEmpty(KeySet.fromJwks(t), what);
      } catch (IllegalArgumentException e) {
        throw new KeyringException(Reason.MALFORMED, what + " is not a usable JWKS: " + e.getMessage());
      } catch (RuntimeException e) {
        throw new KeyringException(Reason.MALFORMED, what + " is not a usable JWKS");
      }
    }
    if (allowBareSecret) {
      return KeySet.of(secretKey(t, what));
    }
    throw new KeyringException(Reason.MALFORMED, what + " is not a JWKS (a JSON object with \"keys\")");
  }

  /**
   * Reads a JWKS that another party publishes (an HTTP JWKS): keys this library cannot use are
   * skipped, as RFC 7517 section 5 asks, and put in {@code skipped} (kid, why); the others are
   * kept. Files and variables the operator writes are read strictly instead ({@link #parse}): a
   * typing error there should stop the load, not quietly lose a key.
   *
   * @throws KeyringException {@code MALFORMED} if it is not a JWKS, or holds no usable key (the
   *     message names what was skipped); {@code CONFIGURATION} if it is encrypted
   */
  public static KeySet parsePublished(String text, String what, Map<String, String> skipped) {
    String t = text.strip();
    if (!t.startsWith("{")) {
      return parse(text, Unlock.none(), false, what); // refuses it, with the words for what it is
    }
    KeySet keys;
    try {
      keys = KeySet.fromJwksSkippingUnusable(t, skipped::put);
    } catch (IllegalArgumentException e) {
      throw new KeyringException(Reason.MALFORMED, what + " is not a usable JWKS: " + e.getMessage());
    } catch (RuntimeException e) {
      throw new KeyringException(Reason.MALFORMED, what + " is not a usable JWKS");
    }
    if (keys.keys().isEmpty() && !skipped.isEmpty()) {
      StringBuilder sb = new StringBuilder();
      skipped.entrySet().stream().limit(5).forEach(e -> sb.append(sb.length() == 0 ? "" : "; ")
          .append(e.getKey()).append(": ").append(e.getValue()));
      throw new KeyringException(Reason.MALFORMED, what + " holds no key this library can use (" + skipped.size()
          + " skipped: " + sb + (skipped.size() > 5 ? "; ..." : "") + ")");
    }
    return nonEmpty(keys, what);
  }

  private static KeySet nonEmpty(KeySet keys, String what) {
    if (keys.keys().isEmpty()) {
      throw new KeyringException(Reason.MALFORMED, what + " holds no keys");
    }
    return keys;
  }

  /** One HS256 key from a base64url secret; its kid is derived from a hash, never the secret. */
  static TokenKey secretKey(String base64url, String what) {
    byte[] secret = Base64Url.decodeOptionallyPadded(base64url);
    if (secret == null) {
      throw new KeyringException(Reason.MALFORMED,
          what + " is neither a JWKS nor a canonical base64url secret");
    }
    try {
      if (secret.length < MIN_SECRET_BYTES) {
        throw new KeyringException(Reason.UNSAFE_PARAMETERS, what + " holds a secret of " + secret.length
            + " bytes; HS256 needs at least " + MIN_SECRET_BYTES + " random bytes");
      }
      return TokenKey.secret(KeyIds.forSecret(secret), Algorithm.HS256, secret);
    } finally {
      Arrays.fill(secret, (byte) 0);
    }
  }
}
