package dev.sessionless.core;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import dev.sessionless.core.TokenException.Reason;
import dev.sessionless.core.internal.AesGcmEngine;
import dev.sessionless.core.internal.Base64Url;
import dev.sessionless.core.internal.ClaimRules;
import dev.sessionless.core.internal.ByteSink;
import dev.sessionless.core.internal.Deflate;
import dev.sessionless.core.internal.Json;
import dev.sessionless.core.internal.KeyEngine;
import dev.sessionless.core.internal.RawJson;
import dev.sessionless.core.internal.Scratch;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Map;

/**
 * Writes compact tokens for a {@link TokenCodec}: the payload JSON, then the JWS signature or the
 * JWE encryption, straight into the token's bytes. Works with pooled buffers, keeps nothing.
 */
final class CompactWriter {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final byte DOT = '.';

  private final String issuer;
  private final String audience;
  private final int maxTokenLength;
  private final boolean compress;
  private final StateMapper mapper;
  private final String tokenType;
  /** The last key and its typed header ({@code tokenType} set): keys change rarely. */
  private volatile Object[] typedHeader;

  CompactWriter(String issuer, String audience, String tokenType, int maxTokenLength, boolean compress,
      StateMapper mapper) {
    this.issuer = issuer;
    this.tokenType = tokenType;
    this.audience = audience;
    this.maxTokenLength = maxTokenLength;
    this.compress = compress;
    this.mapper = mapper;
  }

  /** The token for {@code claims}, issued at {@code now} and expiring at {@code exp}, under {@code key}. */
  String write(TokenKey key, Claims claims, long now, long exp) {
    ByteSink payload = ByteSink.take();
    Scratch scratch = Scratch.take();
    try {
      writePayload(payload, claims, now, exp);
      byte[] token = key.algorithm().isEncrypting()
          ? encrypt(key, payload.array(), payload.size(), scratch)
          : sign(key, payload.array(), payload.size(), scratch);
      return new String(token, StandardCharsets.ISO_8859_1);
    } finally {
      scratch.release();
      payload.release();
    }
  }

  private void writePayload(ByteSink sink, Claims claims, long now, long exp) {
    try (JsonGenerator g = Json.STRICT.createGenerator(sink)) {
      g.writeStartObject();
      g.writeStringProperty("iss", issuer);
      g.writeStringProperty("aud", audience);
      if (claims.subject().isPresent()) {
        g.writeStringProperty("sub", claims.subject().get());
      }
      g.writeNumberProperty("iat", now);
      if (claims.notBefore().isPresent()) {
        g.writeNumberProperty("nbf", claims.notBefore().get().getEpochSecond());
      }
      g.writeNumberProperty("exp", exp);
      g.writeStringProperty("jti", claims.sessionId().orElseGet(CompactWriter::newSessionId));
      Map<String, Object> state = claims.state();
      if (!state.isEmpty()) {
        g.writeObjectPropertyStart(ClaimRules.STATE_CLAIM);
        for (Map.Entry<String, Object> e : state.entrySet()) {
          g.writeName(e.getKey());
          writeValue(g, sink, "state value", e.getKey(), e.getValue());
        }
        g.writeEndObject();
      }
      for (Map.Entry<String, Object> e : claims.claims().entrySet()) {
        g.writeName(e.getKey());
        writeValue(g, sink, "claim", e.getKey(), e.getValue());
      }
      g.writeEndObject();
    } catch (JacksonException e) {
      throw new IllegalStateException("writing a payload to memory failed", e);
    }
  }

  private void writeValue(JsonGenerator g, ByteSink sink, String what, String name, Object v) {
    if (v instanceof RawJson) {
      RawJson raw = (RawJson) v;
      if (!raw.isBytes()) {
        g.writeRawValue(raw.json());
        return;
      }
      // The generator writes the separator (':') for an empty raw value; the bytes follow it
      // straight into the sink: a carried value never becomes a String.
      g.writeRawValue("");
      g.flush();
      raw.writeTo(sink);
      return;
    }
    g.writeRawValue("");
    g.flush();
    try {
      // Streamed by the mapper into the payload itself: no intermediate array.
      mapper.writeTo(v, sink);
    } catch (IOException | RuntimeException ex) {
      throw new TokenException(Reason.STATE_MAPPING,
          what + " '" + name + "' of type " + v.getClass().getName()
              + " cannot be written as JSON: make it a record, bean, map or list Jackson can write",
          ex);
    }
  }

  /** The header this writer puts on tokens of {@code key}: the key's own, or with the codec's typ. */
  private byte[] header(TokenKey key, boolean zip) {
    if (tokenType == null) {
      return key.header(zip);
    }
    Object[] last = typedHeader;
    if (last != null && last[0] == key && last[1] == Boolean.valueOf(zip)) {
      return (byte[]) last[2];
    }
    byte[] h = key.header(zip, tokenType);
    typedHeader = new Object[] {key, zip, h};
    return h;
  }

  /** 128 random bits, base64url: a new session id. */
  static String newSessionId() {
    byte[] b = new byte[16];
    RANDOM.nextBytes(b);
    return Base64Url.encode(b);
  }

  private byte[] sign(TokenKey key, byte[] payload, int len, Scratch scratch) {
    byte[] header = header(key, false);
    KeyEngine engine = key.engine();
    int total = header.length + 1 + Base64Url.encodedLength(len) + 1
        + Base64Url.encodedLength(engine.signatureLength());
    checkLength(total);
    byte[] out = new byte[total];
    System.arraycopy(header, 0, out, 0, header.length);
    int o = header.length;
    out[o++] = DOT;
    o += Base64Url.encode(payload, 0, len, out, o);
    byte[] sig = scratch.mac;
    int sigLen = engine.sign(out, o, sig);
    out[o++] = DOT;
    Base64Url.encode(sig, 0, sigLen, out, o);
    return out;
  }

  private byte[] encrypt(TokenKey key, byte[] payload, int len, Scratch scratch) {
    byte[] plain = payload;
    int plainLen = len;
    if (compress) {
      plain = Deflate.deflate(payload, len);
      plainLen = plain.length;
    }
    byte[] header = header(key, compress);
    int ctLen = plainLen + AesGcmEngine.TAG_BYTES;
    int total = header.length + 2 + Base64Url.encodedLength(AesGcmEngine.IV_BYTES) + 1
        + Base64Url.encodedLength(plainLen) + 1 + Base64Url.encodedLength(AesGcmEngine.TAG_BYTES);
    checkLength(total);
    byte[] ct = new byte[ctLen];
    byte[] iv = scratch.iv;
    ((AesGcmEngine) key.engine()).encrypt(header, header.length, plain, plainLen, RANDOM, iv, ct);
    byte[] out = new byte[total];
    System.arraycopy(header, 0, out, 0, header.length);
    int o = header.length;
    out[o++] = DOT;
    out[o++] = DOT; // dir: the encrypted key is empty
    o += Base64Url.encode(iv, 0, AesGcmEngine.IV_BYTES, out, o);
    out[o++] = DOT;
    o += Base64Url.encode(ct, 0, plainLen, out, o);
    out[o++] = DOT;
    Base64Url.encode(ct, plainLen, AesGcmEngine.TAG_BYTES, out, o);
    return out;
  }

  private void checkLength(int total) {
    if (total > maxTokenLength) {
      throw new TokenException(Reason.TOO_LARGE,
          "the token would be " + total + " characters, over the limit of " + maxTokenLength
              + ": keep less state in the session or raise maxTokenLength");
    }
  }
}
