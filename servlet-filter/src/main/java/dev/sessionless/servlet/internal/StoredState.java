package dev.sessionless.servlet.internal;

import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.io.JsonStringEncoder;
import tools.jackson.core.util.JsonRecyclerPools;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenException.Reason;
import tools.jackson.core.JacksonException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A token's state as the filter stores it, read in one strict streaming pass: where each
 * attribute's JSON sits in the state bytes (read later, only if asked for, and kept as the
 * baseline that tells an in-place change) and the session's own metadata under {@link
 * RequestSession#META}: {@code {"c": creation millis, "m": max-inactive seconds, "t": {name:
 * type tag}}}. Strict like core's own index: a duplicated member at any depth, an unpaired
 * surrogate, a name that is empty or over 256 characters, or metadata of the wrong shape makes
 * the whole state unreadable ({@link Reason#MALFORMED}); metadata members this version does not
 * know are skipped, so a later version may add some.
 */
final class StoredState {
  /**
   * Core's limits for a state (nesting 32, numbers of 64 digits), no input echoed into error
   * locations, and buffers recycled through a shared pool: Jackson's default per-thread pool
   * would keep this webapp's Jackson classes reachable from container threads after undeploy.
   */
  private static final JsonFactory STRICT = JsonFactory.builder()
      .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(32).maxNumberLength(64).build())
      .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .recyclerPool(JsonRecyclerPools.sharedConcurrentDequePool())
      .build();
  private static final int MAX_NAME = 256;

  /** The state object's bytes, as the token carried them. */
  final byte[] bytes;
  /** {@code [start, end)} in {@link #bytes} of each attribute value, in token order. */
  final Map<String, int[]> spans = new LinkedHashMap<>();
  /** Recorded type tag of each attribute, in token order. */
  final Map<String, String> types = new LinkedHashMap<>();
  long created;
  int maxInactive;
  private boolean hasMeta;

  private StoredState(byte[] bytes) {
    this.bytes = bytes;
  }

  /**
   * Reads {@code state}, the token's state object.
   *
   * @throws TokenException {@code MISSING_CLAIM} if there is no metadata; {@code MALFORMED} if
   *     the state or the metadata is not what this filter writes
   */
  static StoredState parse(String state) {
    StoredState s = new StoredState(state.getBytes(StandardCharsets.UTF_8));
    try (JsonParser p = STRICT.createParser(s.bytes)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw bad("the token's state is not a JSON object");
      }
      while (p.nextToken() == JsonToken.PROPERTY_NAME) {
        String name = p.currentName();
        checkName(name);
        JsonToken t = p.nextToken();
        if (name.equals(RequestSession.META)) {
          s.readMeta(p, t);
          continue;
        }
        int start = (int) p.currentTokenLocation().getByteOffset();
        walk(p, t);
        s.spans.put(name, new int[] {start, (int) p.currentLocation().getByteOffset()});
      }
      if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
        throw bad("the token's state is not a strictly valid JSON object");
      }
    } catch (JacksonException e) {
      throw new TokenException(Reason.MALFORMED, "the token's state is not valid JSON", e);
    }
    if (!s.hasMeta) {
      throw new TokenException(Reason.MISSING_CLAIM, "the token carries no session metadata");
    }
    if (!s.types.keySet().equals(s.spans.keySet())) {
      throw bad("the session metadata does not list exactly the stored attributes");
    }
    return s;
  }

  private void readMeta(JsonParser p, JsonToken t) {
    if (t != JsonToken.START_OBJECT) {
      throw bad("the session metadata is not an object");
    }
    boolean c = false;
    boolean m = false;
    boolean ty = false;
    while (p.nextToken() == JsonToken.PROPERTY_NAME) {
      String key = p.currentName();
      JsonToken v = p.nextToken();
      if (key.equals("c")) {
        created = integer(p, v, Long.MIN_VALUE, Long.MAX_VALUE);
        c = true;
      } else if (key.equals("m")) {
        maxInactive = (int) integer(p, v, Integer.MIN_VALUE, Integer.MAX_VALUE);
        m = true;
      } else if (key.equals("t")) {
        readTypes(p, v);
        ty = true;
      } else {
        walk(p, v);
      }
    }
    if (!c || !m || !ty) {
      throw bad("the session metadata is incomplete");
    }
    hasMeta = true;
  }

  private static long integer(JsonParser p, JsonToken v, long min, long max) {
    if (v != JsonToken.VALUE_NUMBER_INT || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
      throw bad("a session metadata number is not an integer");
    }
    long n = p.getLongValue();
    if (n < min || n > max) {
      throw bad("a session metadata number is out of range");
    }
    return n;
  }

  private void readTypes(JsonParser p, JsonToken t) {
    if (t != JsonToken.START_OBJECT) {
      throw bad("the recorded types are not an object");
    }
    while (p.nextToken() == JsonToken.PROPERTY_NAME) {
      String name = p.currentName();
      checkName(name);
      if (p.nextToken() != JsonToken.VALUE_STRING) {
        throw bad("a recorded type is not a string");
      }
      String tag = p.getString();
      if (!noLoneSurrogate(tag)) {
        throw bad("a recorded type is not valid text");
      }
      types.put(name, tag);
    }
  }

  private static void checkName(String name) {
    if (name.isEmpty() || name.length() > MAX_NAME || !noLoneSurrogate(name)) {
      throw bad("the token's state holds a name no attribute can have");
    }
  }

  /** Moves past the value that starts with {@code t}, checking every string in it. */
  private static void walk(JsonParser p, JsonToken t) {
    int depth = 0;
    while (true) {
      if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
        depth++;
      } else if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
        depth--;
      } else if (t == JsonToken.VALUE_STRING || t == JsonToken.PROPERTY_NAME) {
        if (!noLoneSurrogate(p.getStringCharacters(), p.getStringOffset(), p.getStringLength())) {
          throw bad("the token's state holds an unpaired surrogate");
        }
      } else if (t == null) {
        throw bad("the token's state ends early");
      }
      if (depth == 0) {
        return;
      }
      t = p.nextToken();
    }
  }

  private static boolean noLoneSurrogate(String s) {
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      if (Character.isSurrogate(ch)) {
        return noLoneSurrogate(s.toCharArray(), 0, s.length());
      }
    }
    return true;
  }

  private static boolean noLoneSurrogate(char[] c, int off, int len) {
    int end = off + len;
    for (int i = off; i < end; i++) {
      if (Character.isHighSurrogate(c[i])) {
        if (i + 1 >= end || !Character.isLowSurrogate(c[i + 1])) {
          return false;
        }
        i++;
      } else if (Character.isLowSurrogate(c[i])) {
        return false;
      }
    }
    return true;
  }

  private static TokenException bad(String message) {
    return new TokenException(Reason.MALFORMED, message);
  }

  /** The metadata JSON for a session created at {@code created}, with these name → tag pairs. */
  static String metaJson(long created, int maxInactive, Map<String, String> tags) {
    StringBuilder sb = new StringBuilder(32 + 24 * tags.size());
    sb.append("{\"c\":").append(created).append(",\"m\":").append(maxInactive).append(",\"t\":{");
    boolean first = true;
    JsonStringEncoder enc = JsonStringEncoder.getInstance();
    for (Map.Entry<String, String> e : tags.entrySet()) {
      if (!first) {
        sb.append(',');
      }
      first = false;
      sb.append('"');
      enc.quoteAsString(e.getKey(), sb);
      sb.append("\":\"");
      enc.quoteAsString(e.getValue(), sb);
      sb.append('"');
    }
    return sb.append("}}").toString();
  }
}
