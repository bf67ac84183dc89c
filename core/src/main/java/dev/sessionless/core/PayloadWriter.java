package dev.sessionless.core;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import dev.sessionless.core.TokenException.Reason;
import dev.sessionless.core.internal.ByteSink;
import dev.sessionless.core.internal.ClaimRules;
import dev.sessionless.core.internal.Json;
import dev.sessionless.core.internal.RawJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;

/**
 * Writes a token's payload JSON for a {@link CompactWriter}: the registered claims, the state and
 * the extra claims, byte by byte when every part is plain ASCII or JSON already, else with a
 * Jackson generator, to the same bytes either way. Keeps nothing between calls; thread-safe.
 */
final class PayloadWriter {
  private final String issuer;
  private final String audience;
  private final StateMapper mapper;

  // Assignments only (Algorithm's constructor has the same shape): nothing to share.
  PayloadWriter(String issuer, String audience, StateMapper mapper) {
    this.issuer = issuer;
    this.audience = audience;
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
   * The payload JSON for {@code claims}: written directly when it can be and {@code direct},
   * else with the generator. Lets tests hold the two ways to the same bytes.
   */
  byte[] payload(Claims claims, long now, long exp, String jti, boolean direct) {
    ByteSink sink = ByteSink.take();
    try {
      write(sink, claims, now, exp, jti, direct);
      return java.util.Arrays.copyOf(sink.array(), sink.size());
    } finally {
      sink.release();
    }
  }

  /** Writes the payload JSON for {@code claims} into {@code sink}, as {@link #payload} returns it. */
  void write(ByteSink sink, Claims claims, long now, long exp, String jti, boolean direct) {
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
}
