package dev.sessionless.webflux.internal;

import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.core.io.JsonStringEncoder;

/**
 * The session's own metadata in the token state, under {@value SessionAttributes#META}, in the
 * servlet filter's format: {@code {"c": creation millis, "m": max-inactive seconds, "t": {name:
 * tag}}}. Interim, until the shared session engine exports its reader and writer (issue 37).
 */
record SessionMeta(long created, int maxInactive, Map<String, String> tags) {
  /**
   * The metadata of a verified token.
   *
   * @throws TokenException {@code MISSING_CLAIM} if there is none; {@code MALFORMED} if it is not
   *     what this format writes or does not list exactly the stored attributes
   */
  static SessionMeta of(SessionToken token) {
    if (!token.has(SessionAttributes.META)) {
      throw new TokenException(TokenException.Reason.MISSING_CLAIM, "the token carries no session metadata");
    }
    Map<?, ?> m;
    try {
      m = token.get(SessionAttributes.META, Map.class).orElse(null);
    } catch (TokenException e) {
      throw bad();
    }
    if (m == null || !(m.get("c") instanceof Number c) || !(m.get("m") instanceof Number mi)
        || !(m.get("t") instanceof Map<?, ?> t) || !(c instanceof Long || c instanceof Integer)
        || !(mi instanceof Integer)) {
      throw bad();
    }
    Map<String, String> tags = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : t.entrySet()) {
      if (!(e.getValue() instanceof String tag) || !token.has((String) e.getKey())) {
        throw bad();
      }
      tags.put((String) e.getKey(), tag);
    }
    if (tags.size() != token.stateNames().size() - 1 || tags.containsKey(SessionAttributes.META)) {
      throw bad();
    }
    return new SessionMeta(c.longValue(), mi.intValue(), tags);
  }

  private static TokenException bad() {
    return new TokenException(TokenException.Reason.MALFORMED, "the session metadata is not what Sessionless writes");
  }

  /** The metadata JSON for these attributes. */
  static byte[] json(long created, int maxInactive, Map<String, SessionAttributes.Entry> entries) {
    StringBuilder sb = new StringBuilder(32 + 24 * entries.size());
    sb.append("{\"c\":").append(created).append(",\"m\":").append(maxInactive).append(",\"t\":{");
    JsonStringEncoder enc = JsonStringEncoder.getInstance();
    boolean first = true;
    for (Map.Entry<String, SessionAttributes.Entry> e : entries.entrySet()) {
      sb.append(first ? "\"" : ",\"");
      first = false;
      enc.quoteAsString(e.getKey(), sb);
      sb.append("\":\"");
      enc.quoteAsString(e.getValue().tag, sb);
      sb.append('"');
    }
    return sb.append("}}").toString().getBytes(StandardCharsets.UTF_8);
  }
}
