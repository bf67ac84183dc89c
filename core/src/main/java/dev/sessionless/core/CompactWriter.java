package dev.sessionless.core;

import dev.sessionless.core.TokenException.Reason;
import dev.sessionless.core.internal.AesGcmEngine;
import dev.sessionless.core.internal.Base64Url;
import dev.sessionless.core.internal.ByteSink;
import dev.sessionless.core.internal.Deflate;
import dev.sessionless.core.internal.KeyEngine;
import dev.sessionless.core.internal.Scratch;
import dev.sessionless.core.internal.SeededRandom;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;

/**
 * Writes compact tokens for a {@link TokenCodec}: the payload JSON (by {@link PayloadWriter}), then
 * the JWS signature or the JWE encryption, straight into the token's bytes. Works with pooled
 * buffers, keeps nothing.
 */
final class CompactWriter {
  /** IVs and session ids: core's once-seeded DRBG, which reads no file on a request (an event loop). */
  private static final SecureRandom RANDOM = SeededRandom.source();
  private static final byte DOT = '.';

  private final PayloadWriter payloads;
  private final int maxTokenLength;
  private final Compression compress;
  private final String tokenType;
  /** The last key and its typed header ({@code tokenType} set): keys change rarely. */
  private volatile Object[] typedHeader;

  CompactWriter(String issuer, String audience, String tokenType, int maxTokenLength, Compression compress,
      StateMapper mapper) {
    this.payloads = new PayloadWriter(issuer, audience, mapper);
    this.tokenType = tokenType;
    this.maxTokenLength = maxTokenLength;
    this.compress = compress;
  }

  /**
   * {@code prefix + token + suffix}, the token for {@code claims} issued at {@code now} and
   * expiring at {@code exp} under {@code key}. The token's characters are built in the scratch's
   * work buffer, and the returned String is the only copy kept: with a prefix or suffix, the
   * three are joined in the scratch's other buffer first, so no String of the token alone is made.
   */
  String write(TokenKey key, Claims claims, long now, long exp, String prefix, String suffix) {
    ByteSink payload = ByteSink.take();
    Scratch scratch = Scratch.take();
    try {
      String id = claims.sessionIdOrNull();
      payloads.write(payload, claims, now, exp, id != null ? id : newSessionId(), true);
      int n = key.algorithm().isEncrypting()
          ? encrypt(key, payload.array(), payload.size(), scratch)
          : sign(key, payload.array(), payload.size(), scratch);
      byte[] token = scratch.work(n);
      if (prefix.isEmpty() && suffix.isEmpty()) {
        return new String(token, 0, n, StandardCharsets.ISO_8859_1);
      }
      // The payload buffer is free now: the encrypted path's ciphertext is in the token already.
      byte[] joined = scratch.payload(prefix.length() + n + suffix.length());
      if (!latin1(prefix, joined, 0) || !latin1(suffix, joined, prefix.length() + n)) {
        return prefix + new String(token, 0, n, StandardCharsets.ISO_8859_1) + suffix;
      }
      System.arraycopy(token, 0, joined, prefix.length(), n);
      return new String(joined, 0, prefix.length() + n + suffix.length(), StandardCharsets.ISO_8859_1);
    } finally {
      scratch.release();
      payload.release();
    }
  }

  /** The payload JSON for {@code claims}, as {@link PayloadWriter#payload} writes it: for tests. */
  byte[] payload(Claims claims, long now, long exp, String jti, boolean direct) {
    return payloads.payload(claims, now, exp, jti, direct);
  }

  /** Copies {@code s} into {@code out} from {@code at}; false if a character is beyond Latin-1. */
  private static boolean latin1(String s, byte[] out, int at) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c > 0xFF) {
        return false;
      }
      out[at + i] = (byte) c;
    }
    return true;
  }

  /** The header this writer puts on tokens of {@code key}: the key's own, or with the codec's typ. */
  private byte[] header(TokenKey key, Compression zip) {
    if (tokenType == null) {
      return key.header(zip);
    }
    Object[] last = typedHeader;
    if (last != null && last[0] == key && last[1] == zip) {
      return (byte[]) last[2];
    }
    byte[] h = key.header(zip, tokenType);
    typedHeader = new Object[] {key, zip, h};
    return h;
  }

  /** 128 random bits, base64url: a new session id. */
  static String newSessionId() {
    return SeededRandom.newId();
  }

  /** Writes the signed token into {@code scratch.work}; returns its length. */
  private int sign(TokenKey key, byte[] payload, int len, Scratch scratch) {
    if (compress != Compression.NONE) {
      // Into the scratch's inflate buffer, which the encode path does not otherwise use.
      len = Deflate.deflate(payload, len, compress == Compression.DEFLATE_WITH_DICTIONARY, scratch);
      payload = scratch.inflated();
    }
    byte[] header = header(key, compress);
    KeyEngine engine = key.engine();
    int total = header.length + 1 + Base64Url.encodedLength(len) + 1
        + Base64Url.encodedLength(engine.signatureLength());
    checkLength(total);
    byte[] out = scratch.work(total);
    System.arraycopy(header, 0, out, 0, header.length);
    int o = header.length;
    out[o++] = DOT;
    o += Base64Url.encode(payload, 0, len, out, o);
    byte[] sig = scratch.mac;
    int sigLen = engine.sign(out, o, sig);
    out[o++] = DOT;
    Base64Url.encode(sig, 0, sigLen, out, o);
    return total;
  }

  /**
   * Writes the encrypted token into {@code scratch.work}; returns its length. The plaintext
   * (and its compressed form) is cleared from the pooled buffers it was written in, whatever
   * happens.
   */
  private int encrypt(TokenKey key, byte[] payload, int len, Scratch scratch) {
    boolean compressed = compress != Compression.NONE;
    try {
      return encryptPlain(key, payload, len, scratch);
    } finally {
      java.util.Arrays.fill(payload, 0, len, (byte) 0);
      if (compressed) {
        java.util.Arrays.fill(scratch.inflated(), (byte) 0);
      }
    }
  }

  private int encryptPlain(TokenKey key, byte[] payload, int len, Scratch scratch) {
    byte[] plain = payload;
    int plainLen = len;
    if (compress != Compression.NONE) {
      // Into the scratch's inflate buffer, which the encode path does not otherwise use.
      plainLen = Deflate.deflate(payload, len, compress == Compression.DEFLATE_WITH_DICTIONARY, scratch);
      plain = scratch.inflated();
    }
    byte[] header = header(key, compress);
    int ctLen = plainLen + AesGcmEngine.TAG_BYTES;
    int total = header.length + 2 + Base64Url.encodedLength(AesGcmEngine.IV_BYTES) + 1
        + Base64Url.encodedLength(plainLen) + 1 + Base64Url.encodedLength(AesGcmEngine.TAG_BYTES);
    checkLength(total);
    byte[] ct = scratch.payload(ctLen); // the encode path uses no other part of the payload buffer
    byte[] iv = scratch.iv;
    ((AesGcmEngine) key.engine()).encrypt(header, header.length, plain, plainLen, RANDOM, iv, ct);
    byte[] out = scratch.work(total);
    System.arraycopy(header, 0, out, 0, header.length);
    int o = header.length;
    out[o++] = DOT;
    out[o++] = DOT; // dir: the encrypted key is empty
    o += Base64Url.encode(iv, 0, AesGcmEngine.IV_BYTES, out, o);
    out[o++] = DOT;
    o += Base64Url.encode(ct, 0, plainLen, out, o);
    out[o++] = DOT;
    Base64Url.encode(ct, plainLen, AesGcmEngine.TAG_BYTES, out, o);
    return total;
  }

  private void checkLength(int total) {
    if (total > maxTokenLength) {
      throw new TokenException(Reason.TOO_LARGE,
          "the token would be " + total + " characters, over the limit of " + maxTokenLength
              + ": keep less state in the session or raise maxTokenLength");
    }
  }
}
