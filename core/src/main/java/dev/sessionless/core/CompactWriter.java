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
import java.time.Instant;
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
  private final Compression compress;
  private final StateMapper mapper;
  private final String tokenType;
  /** The last key and its typed header ({@code tokenType} set): keys change rarely. */
  private volatile Object[] typedHeader;

  CompactWriter(String issuer, String audience, String tokenType, int maxTokenLength, Compression compress,
      StateMapper mapper) {
    this.issuer = issuer;
    this.tokenType = tokenType;
    this.audience = audience;
    this.maxTokenLength = maxTokenLength;
    this.compress = compress;
    this.mapper = mapper;
    this.opening = opening(issuer, audience);
  }

  /**
   * {@code {"iss":…,"aud":…} as the generator writes them, without the closing brace: every
   * payload starts so. Built once, so the usual payload needs no generator (see {@link #writeDirect}).
   */
  private final byte[] opening;

  private static byte[] opening(String issuer, String audience) {
    ByteSink sink = ByteSink.take();
    try {
      try (JsonGenerator g = Json.STRICT.createGenerator(sink)) {
        g.writeStartObject();
        g.writeStringProperty("iss", issuer);
        g.writeStringProperty("aud", audience);
        g.writeEndObject();
      }
      return java.util.Arrays.copyOf(sink.array(), sink.size() - 1); // without the '}'
    } finally {
      sink.release();
    }
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
      writePayload(payload, claims, now, exp, id != null ? id : newSessionId(), true);
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

  /**
   * The payload JSON for {@code claims}: written directly when it can be and {@code direct},
   * else with the generator. Lets tests hold the two ways to the same bytes.
   */
  byte[] payload(Claims claims, long now, long exp, String jti, boolean direct) {
    ByteSink sink = ByteSink.take();
    try {
      writePayload(sink, claims, now, exp, jti, direct);
      return java.util.Arrays.copyOf(sink.array(), sink.size());
    } finally {
      sink.release();
    }
  }

  private void writePayload(ByteSink sink, Claims claims, long now, long exp, String jti, boolean direct) {
    if (!direct || !writeDirect(sink, claims, now, exp, jti)) {
      sink.reset();
      writeWithGenerator(sink, claims, now, exp, jti);
    }
  }

  /**
   * Writes the payload byte by byte, exactly as {@link #writeWithGenerator} would, when every
   * name and the subject and session id are plain printable ASCII (no escaping to decide) and
   * every state value and claim is JSON already ({@link RawJson}, as the servlet filter hands
   * over): no generator is made, which was most of an encode's allocation. False, with the sink
   * part-written, when anything else is there.
   */
  private boolean writeDirect(ByteSink sink, Claims claims, long now, long exp, String jti) {
    Map<String, Object> state = claims.state();
    Map<String, Object> extra = claims.claims();
    String sub = claims.subjectOrNull();
    if (!plainAscii(jti) || sub != null && !plainAscii(sub)) {
      return false;
    }
    for (Map.Entry<String, Object> e : state.entrySet()) {
      if (!(e.getValue() instanceof RawJson) || !plainAscii(e.getKey())) {
        return false;
      }
    }
    for (Map.Entry<String, Object> e : extra.entrySet()) {
      if (!(e.getValue() instanceof RawJson || authTime(e)) || !plainAscii(e.getKey())) {
        return false;
      }
    }
    sink.write(opening, 0, opening.length);
    if (sub != null) {
      ascii(sink, ",\"sub\":\"");
      ascii(sink, sub);
      sink.write('"');
    }
    ascii(sink, ",\"iat\":");
    number(sink, now);
    Instant nbf = claims.notBeforeOrNull();
    if (nbf != null) {
      ascii(sink, ",\"nbf\":");
      number(sink, nbf.getEpochSecond());
    }
    ascii(sink, ",\"exp\":");
    number(sink, exp);
    ascii(sink, ",\"jti\":\"");
    ascii(sink, jti);
    sink.write('"');
    if (!state.isEmpty()) {
      sink.write(',');
      sink.write('"');
      ascii(sink, ClaimRules.STATE_CLAIM);
      ascii(sink, "\":{");
      boolean first = true;
      for (Map.Entry<String, Object> e : state.entrySet()) {
        member(sink, first, e.getKey(), (RawJson) e.getValue());
        first = false;
      }
      sink.write('}');
    }
    for (Map.Entry<String, Object> e : extra.entrySet()) {
      if (e.getValue() instanceof RawJson raw) {
        member(sink, false, e.getKey(), raw);
      } else {
        ascii(sink, ",\"");
        ascii(sink, e.getKey());
        ascii(sink, "\":");
        number(sink, (Long) e.getValue());
      }
    }
    sink.write('}');
    return true;
  }

  /** The {@code auth_time} claim {@link Claims.Builder#authTime} sets: whole seconds, 1970-9999. */
  private static boolean authTime(Map.Entry<String, Object> e) {
    return e.getKey().equals(SessionToken.AUTH_TIME) && e.getValue() instanceof Long;
  }

  private static void member(ByteSink sink, boolean first, String name, RawJson value) {
    if (!first) {
      sink.write(',');
    }
    sink.write('"');
    ascii(sink, name);
    sink.write('"');
    sink.write(':');
    if (value.isBytes()) {
      value.writeTo(sink);
    } else {
      byte[] b = value.json().getBytes(StandardCharsets.UTF_8);
      sink.write(b, 0, b.length);
    }
  }

  /** Printable ASCII without {@code "} or {@code \}: written as it is inside a JSON string. */
  private static boolean plainAscii(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
        return false;
      }
    }
    return true;
  }

  private static void ascii(ByteSink sink, String s) {
    for (int i = 0; i < s.length(); i++) {
      sink.write(s.charAt(i));
    }
  }

  /** A number of seconds, as the generator writes it. */
  private static void number(ByteSink sink, long v) {
    if (v < 0) {
      ascii(sink, Long.toString(v)); // never for a valid time: iat, nbf and exp lie in 1970-9999
      return;
    }
    long p = 1;
    while (p <= v / 10) {
      p *= 10;
    }
    for (; p > 0; p /= 10) {
      sink.write((int) ('0' + v / p % 10));
    }
  }

  private void writeWithGenerator(ByteSink sink, Claims claims, long now, long exp, String jti) {
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
      g.writeStringProperty("jti", jti);
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
    byte[] b = new byte[16];
    RANDOM.nextBytes(b);
    return Base64Url.encode(b);
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
