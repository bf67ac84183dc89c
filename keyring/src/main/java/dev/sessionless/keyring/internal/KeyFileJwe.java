package dev.sessionless.keyring.internal;

import dev.sessionless.core.KeySet;
import dev.sessionless.core.internal.Base64Url;
import dev.sessionless.keyring.EncryptedJwks;
import dev.sessionless.keyring.KeyringException;
import dev.sessionless.keyring.KeyringException.Reason;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Iterator;
import java.util.Set;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The compact JWE of an encrypted key file ({@link EncryptedJwks}): sealing a plaintext under a
 * wrapped content key, and on the way back the five parts, the header parsed and checked before
 * any key is derived, and the opening. {@link EncryptedJwks} keeps the public API and the
 * password rules; this class keeps the byte work.
 */
public final class KeyFileJwe {
  /** The content encryption written and accepted. */
  public static final String ENC = "A256GCM";
  /** The content type written. */
  public static final String CTY = "jwk-set+json";
  private static final int MAX_HEADER_CHARS = 4096;
  private static final int CEK_BYTES = 32;
  private static final int WRAPPED_CEK_BYTES = CEK_BYTES + 8;
  private static final int IV_BYTES = 12;
  private static final int TAG_BYTES = 16;
  private static final SecureRandom RANDOM = new SecureRandom();
  /** Strict JSON for headers: duplicate members and trailing tokens are refused. */
  public static final ObjectMapper JSON = JsonMapper.builder()
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .build();
  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();


  private final String protectedHeader;
  private final ObjectNode header;
  private final String[] parts;

  private KeyFileJwe(String[] parts, ObjectNode header) {
    this.parts = parts;
    this.protectedHeader = parts[0];
    this.header = header;
  }

  /**
   * Splits and checks a compact JWE and parses its header; decrypts nothing.
   *
   * @throws KeyringException {@code MALFORMED} for anything but five parts with a JSON object header
   */
  public static KeyFileJwe parse(String jwe) {
    if (jwe.length() > EncryptedJwks.MAX_INPUT_CHARS) {
      throw new KeyringException(Reason.MALFORMED,
          "the key file is larger than " + EncryptedJwks.MAX_INPUT_CHARS + " characters: refused unread");
    }
    String s = jwe.strip();
    String[] parts = s.split("\\.", -1);
    if (parts.length != 5) {
      throw new KeyringException(Reason.MALFORMED,
          "an encrypted key file must be a compact JWE of five dot-separated parts, found " + parts.length);
    }
    if (parts[0].length() > MAX_HEADER_CHARS) {
      throw new KeyringException(Reason.MALFORMED, "the key file header is too long");
    }
    byte[] headerBytes = decode(parts[0], "header");
    JsonNode node;
    try {
      node = JSON.readTree(headerBytes);
    } catch (tools.jackson.core.JacksonException e) {
      // Jackson's message may quote the input; the header holds no secret, but keep it short.
      throw new KeyringException(Reason.MALFORMED, "the key file header is not valid JSON (or repeats a member)");
    }
    if (node == null || !node.isObject()) {
      throw new KeyringException(Reason.MALFORMED, "the key file header is not a JSON object");
    }
    return new KeyFileJwe(parts, (ObjectNode) node);
  }

  /** The header member {@code name}, or {@code null}. */
  public JsonNode member(String name) {
    return header.get(name);
  }

  /** The header's {@code alg}, required to be a string. */
  public String alg() {
    JsonNode alg = header.get("alg");
    if (alg == null || !alg.isString()) {
      throw new KeyringException(Reason.MALFORMED, "the key file header has no string \"alg\"");
    }
    return alg.stringValue();
  }

  /** Refuses {@code crit}, {@code zip}, members outside {@code allowed}, an {@code enc} other than A256GCM, a wrong {@code cty}. */
  public void checkHeader(Set<String> allowed) {
    if (header.has("crit")) {
      throw new KeyringException(Reason.MALFORMED, "the key file header has \"crit\": refused");
    }
    if (header.has("zip")) {
      throw new KeyringException(Reason.MALFORMED, "the key file header asks for compression (\"zip\"): refused");
    }
    for (Iterator<String> it = header.propertyNames().iterator(); it.hasNext(); ) {
      String name = it.next();
      if (!allowed.contains(name)) {
        throw new KeyringException(Reason.MALFORMED,
            "the key file header has the unexpected member \"" + printable(name) + "\"");
      }
    }
    JsonNode enc = header.get("enc");
    if (enc == null || !ENC.equals(enc.stringValue(null))) {
      throw new KeyringException(Reason.MALFORMED, "the key file header must say \"enc\": \"" + ENC + "\"");
    }
    JsonNode cty = header.get("cty");
    if (cty != null) {
      String t = cty.isString() ? cty.stringValue().toLowerCase(java.util.Locale.ROOT) : "";
      if (!t.equals(CTY) && !t.equals("application/" + CTY)) {
        throw new KeyringException(Reason.MALFORMED, "the key file's content type is not " + CTY);
      }
    }
    for (String name : new String[] {"kid", "typ"}) {
      JsonNode v = header.get(name);
      if (v != null && !v.isString()) {
        throw new KeyringException(Reason.MALFORMED, "the key file header member \"" + name + "\" is not a string");
      }
    }
  }

  /** Unwraps the content key with {@code kek}, decrypts and parses the key set. */
  public KeySet open(byte[] kek) {
    byte[] wrapped = decode(parts[1], "encrypted key");
    byte[] iv = decode(parts[2], "initialization vector");
    byte[] ciphertext = decode(parts[3], "ciphertext");
    byte[] tag = decode(parts[4], "authentication tag");
    if (wrapped.length != WRAPPED_CEK_BYTES || iv.length != IV_BYTES || tag.length != TAG_BYTES
        || ciphertext.length == 0) {
      throw new KeyringException(Reason.MALFORMED,
          "the key file's encrypted key, initialization vector or tag has the wrong length");
    }
    byte[] cek = null;
    byte[] plaintext = null;
    try {
      Cipher unwrap = Cipher.getInstance("AESWrap");
      unwrap.init(Cipher.UNWRAP_MODE, new SecretKeySpec(kek, "AES"));
      try {
        cek = unwrap.unwrap(wrapped, "AES", Cipher.SECRET_KEY).getEncoded();
      } catch (java.security.InvalidKeyException e) {
        throw decryptionFailed();
      }
      if (cek.length != CEK_BYTES) {
        throw decryptionFailed();
      }
      Cipher gcm = Cipher.getInstance("AES/GCM/NoPadding");
      gcm.init(Cipher.DECRYPT_MODE, new SecretKeySpec(cek, "AES"), new GCMParameterSpec(TAG_BYTES * 8, iv));
      gcm.updateAAD(protectedHeader.getBytes(StandardCharsets.US_ASCII));
      byte[] sealed = new byte[ciphertext.length + TAG_BYTES];
      System.arraycopy(ciphertext, 0, sealed, 0, ciphertext.length);
      System.arraycopy(tag, 0, sealed, ciphertext.length, TAG_BYTES);
      try {
        plaintext = gcm.doFinal(sealed);
      } catch (AEADBadTagException e) {
        throw decryptionFailed();
      }
      return parseKeySet(plaintext);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JVM lacks AES key wrap or AES-GCM", e);
    } finally {
      if (cek != null) {
        Arrays.fill(cek, (byte) 0);
      }
      if (plaintext != null) {
        Arrays.fill(plaintext, (byte) 0);
      }
      Arrays.fill(ciphertext, (byte) 0);
    }
  }

  private static KeySet parseKeySet(byte[] plaintext) {
    try {
      return KeySet.fromJwks(new String(plaintext, StandardCharsets.UTF_8));
    } catch (IllegalArgumentException e) {
      // Core's messages name kids and members, never values.
      throw new KeyringException(Reason.MALFORMED,
          "the key file decrypts, but its content is not a valid key set: " + e.getMessage());
    }
  }

  private static KeyringException decryptionFailed() {
    return new KeyringException(Reason.DECRYPTION_FAILED,
        "the key file does not decrypt: wrong password or key-encryption key, or the file was altered");
  }

  /**
   * Encrypts {@code plaintext} under a fresh content key wrapped with {@code kek} (A256KW), with
   * {@code header} as the protected header. The caller clears {@code plaintext} and {@code kek}.
   */
  public static String seal(byte[] plaintext, ObjectNode header, byte[] kek) {
    String protectedHeader = B64.encodeToString(header.toString().getBytes(StandardCharsets.UTF_8));
    byte[] cek = new byte[CEK_BYTES];
    byte[] iv = new byte[IV_BYTES];
    RANDOM.nextBytes(cek);
    RANDOM.nextBytes(iv);
    try {
      Cipher wrap = Cipher.getInstance("AESWrap");
      wrap.init(Cipher.WRAP_MODE, new SecretKeySpec(kek, "AES"));
      byte[] wrapped = wrap.wrap(new SecretKeySpec(cek, "AES"));
      Cipher gcm = Cipher.getInstance("AES/GCM/NoPadding");
      gcm.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(cek, "AES"), new GCMParameterSpec(TAG_BYTES * 8, iv));
      gcm.updateAAD(protectedHeader.getBytes(StandardCharsets.US_ASCII));
      byte[] sealed = gcm.doFinal(plaintext);
      int ctLen = sealed.length - TAG_BYTES;
      return protectedHeader + '.' + B64.encodeToString(wrapped) + '.' + B64.encodeToString(iv) + '.'
          + B64.encodeToString(Arrays.copyOfRange(sealed, 0, ctLen)) + '.'
          + B64.encodeToString(Arrays.copyOfRange(sealed, ctLen, sealed.length));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JVM lacks AES key wrap or AES-GCM", e);
    } finally {
      Arrays.fill(cek, (byte) 0);
    }
  }

  /** Strict base64url (core's one codec): no padding, no white space, canonical trailing bits. */
  public static byte[] decode(String s, String what) {
    byte[] b = Base64Url.decode(s);
    if (b == null) {
      throw new KeyringException(Reason.MALFORMED, "the key file's " + what + " is not canonical base64url");
    }
    return b;
  }

  /** At most 40 characters of {@code s}, anything outside printable ASCII as {@code ?}. */
  public static String printable(String s) {
    if (s == null) {
      return "(none)";
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < s.length() && i < 40; i++) {
      char ch = s.charAt(i);
      sb.append(ch >= 0x20 && ch < 0x7f ? ch : '?');
    }
    return sb.toString();
  }
}
