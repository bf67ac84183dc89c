package dev.sessionless.session.internal;

import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.io.JsonStringEncoder;
import tools.jackson.core.util.JsonRecyclerPools;
import tools.jackson.core.JacksonException;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenException.Reason;
import dev.sessionless.core.internal.StateAccess;
import dev.sessionless.core.internal.StateIndex;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A token's state as the filter stores it: where each attribute's JSON sits in the state bytes
 * (read later, only if asked for, and kept as the baseline that tells an in-place change) and
 * the session's own metadata under {@link #META}: {@code {"c": creation millis,
 * "m": max-inactive seconds, "t": {name: type tag}}}.
 *
 * <p>The state is not parsed here again: core's strict index of the verified token (kept with
 * the token, so with its verification-cache entry) already says where each value sits, and it
 * refuses what this filter refuses: a duplicated member at any depth, an unpaired surrogate, a
 * name that is empty or over 256 characters ({@link Reason#MALFORMED}). Only the small metadata
 * value is read, in one streaming pass; metadata of the wrong shape is {@code MALFORMED} too,
 * and metadata members this version does not know are skipped, so a later version may add some.
 *
 * <p>Never changed once made: it is kept with the token (core's {@code StateAccess.attach}), so
 * every request that brings the same token back through the verification cache shares it.
 */
final class StoredState {
  /** The state name holding the session's own metadata; refused as an attribute name. */
  public static final String META = "$sessionless";
  /**
   * Core's limits for a state (nesting 32, numbers of 64 digits), no input echoed into error
   * locations, and buffers recycled through a shared pool: Jackson's default per-thread pool
   * would keep this webapp's Jackson classes reachable from container threads after undeploy.
   * No duplicate detection: core's index already refused any duplicate in the whole state.
   */
  private static final JsonFactory META_READER = JsonFactory.builder()
      .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(32).maxNumberLength(64).build())
      .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
      .recyclerPool(JsonRecyclerPools.sharedBoundedPool())
      .build();
  private static final int MAX_NAME = 256;

  /** The state object's bytes, as the token carried them: core's own, never to be changed. */
  final byte[] bytes;
  /**
   * {@code [start, end)} in {@link #bytes} of each state value, in token order: core's index,
   * which also lists the metadata under {@link #META}.
   */
  final Map<String, int[]> spans;
  /** Recorded type tag of each attribute, in token order. */
  final Map<String, String> types = new LinkedHashMap<>();
  long created;
  int maxInactive;

  private StoredState(byte[] bytes, Map<String, int[]> spans) {
    this.bytes = bytes;
    this.spans = spans;
  }

  /**
   * The stored state of a verified token, from core's bytes and index.
   *
   * @throws TokenException {@code MISSING_CLAIM} if there is no metadata; {@code MALFORMED} if
   *     the state or the metadata is not what this filter writes
   */
  static StoredState of(SessionToken token) {
    // A verification-cache hit hands back the very token: its metadata was read once already.
    StoredState kept = StateAccess.attached(token, StoredState.class);
    if (kept != null) {
      return kept;
    }
    StoredState s = of(StateAccess.bytes(token), StateAccess.spans(token), true);
    StateAccess.attach(token, s);
    return s;
  }

  /** As {@link #of(SessionToken)}, for a state given as text (tests): indexed by core first. */
  static StoredState parse(String state) {
    return parse(state, true);
  }

  /** As {@link #parse(String)}; {@code ownReader} false reads the metadata with the parser only (tests). */
  static StoredState parse(String state, boolean ownReader) {
    byte[] bytes = state.getBytes(StandardCharsets.UTF_8);
    return of(bytes, StateIndex.of(bytes).spans(), ownReader);
  }

  /** Whether the metadata of {@code state} is read without the parser (tests). */
  static boolean ownReaderTakes(String state) {
    byte[] bytes = state.getBytes(StandardCharsets.UTF_8);
    Map<String, int[]> spans = StateIndex.of(bytes).spans();
    int[] meta = spans.get(META);
    return new StoredState(bytes, spans).readOwnMeta(bytes, meta[0], meta[1]);
  }

  private static StoredState of(byte[] bytes, Map<String, int[]> spans, boolean ownReader) {
    StoredState s = new StoredState(bytes, spans);
    int[] meta = spans.get(META);
    if (meta == null) {
      throw new TokenException(Reason.MISSING_CLAIM, "the token carries no session metadata");
    }
    if (!ownReader || !s.readOwnMeta(bytes, meta[0], meta[1])) {
      s.types.clear();
      try (JsonParser p = META_READER.createParser(bytes, meta[0], meta[1] - meta[0])) {
        s.readMeta(p, p.nextToken());
      } catch (JacksonException e) {
        throw new TokenException(Reason.MALFORMED, "the session metadata is not valid JSON", e);
      }
    }
    // Exactly the stored attributes: every tag names one (never the metadata), one per attribute.
    if (s.types.size() != spans.size() - 1 || s.types.containsKey(META)) {
      throw bad("the session metadata does not list exactly the stored attributes");
    }
    for (String name : s.types.keySet()) {
      if (!spans.containsKey(name)) {
        throw bad("the session metadata does not list exactly the stored attributes");
      }
    }
    return s;
  }

  /**
   * Reads metadata exactly as {@link #metaJson} writes it ({@code {"c":N,"m":N,"t":{"name":"tag",
   * ...}}}, no whitespace, no escapes, numbers that fit) without a JSON parser; false for anything
   * else, which the streaming parser then reads (or refuses) as before. Core's index has already
   * checked that these bytes are strict JSON, valid UTF-8, with no duplicated member.
   */
  private boolean readOwnMeta(byte[] b, int from, int to) {
    int i = from;
    if (!at(b, i, to, META_C)) {
      return false;
    }
    i += META_C.length;
    int end = numberEnd(b, i, to);
    if (end < 0) {
      return false;
    }
    long c = digits(b, i, end);
    i = end;
    if (!at(b, i, to, META_M)) {
      return false;
    }
    i += META_M.length;
    end = numberEnd(b, i, to);
    if (end < 0) {
      return false;
    }
    long m = digits(b, i, end);
    if (m < Integer.MIN_VALUE || m > Integer.MAX_VALUE) {
      return false;
    }
    i = end;
    if (!at(b, i, to, META_T)) {
      return false;
    }
    i += META_T.length;
    boolean first = true;
    while (i < to && b[i] != '}') {
      if (!first) {
        if (b[i] != ',') {
          return false;
        }
        i++;
      }
      first = false;
      int nameEnd = plainString(b, i, to);
      if (nameEnd < 0 || nameEnd + 1 >= to || b[nameEnd] != ':') {
        return false;
      }
      int tagEnd = plainString(b, nameEnd + 1, to);
      if (tagEnd < 0) {
        return false;
      }
      String name = new String(b, i + 1, nameEnd - i - 2, StandardCharsets.ISO_8859_1);
      if (name.isEmpty() || name.length() > MAX_NAME) {
        return false;
      }
      types.put(name, new String(b, nameEnd + 2, tagEnd - nameEnd - 3, StandardCharsets.ISO_8859_1));
      i = tagEnd;
    }
    if (i + 2 != to || b[i] != '}' || b[i + 1] != '}') {
      return false;
    }
    created = c;
    maxInactive = (int) m;
    return true;
  }

  private static final byte[] META_C = "{\"c\":".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] META_M = ",\"m\":".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] META_T = ",\"t\":{".getBytes(StandardCharsets.US_ASCII);

  private static boolean at(byte[] b, int i, int to, byte[] what) {
    return to - i >= what.length && java.util.Arrays.equals(b, i, i + what.length, what, 0, what.length);
  }

  /** The end of an optional minus and 1 to 18 digits at {@code i}, or -1. */
  private static int numberEnd(byte[] b, int i, int to) {
    int start = i < to && b[i] == '-' ? i + 1 : i;
    int j = start;
    while (j < to && b[j] >= '0' && b[j] <= '9') {
      j++;
    }
    return j == start || j - start > 18 ? -1 : j;
  }

  private static long digits(byte[] b, int i, int end) {
    boolean negative = b[i] == '-';
    long n = 0;
    for (int j = negative ? i + 1 : i; j < end; j++) {
      n = n * 10 + (b[j] - '0');
    }
    return negative ? -n : n;
  }

  /**
   * The index after a string at {@code i} of printable ASCII with no escape, or -1 (anything
   * else, non-ASCII names included, is left to the parser and its checks).
   */
  private static int plainString(byte[] b, int i, int to) {
    if (i >= to || b[i] != '"') {
      return -1;
    }
    for (int j = i + 1; j < to; j++) {
      if (b[j] == '"') {
        return j + 1;
      }
      if (b[j] == '\\' || b[j] < 0x20) { // a byte >= 0x80 is negative
        return -1;
      }
    }
    return -1;
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
        p.skipChildren(); // core's index checked every string in it
      }
    }
    if (!c || !m || !ty) {
      throw bad("the session metadata is incomplete");
    }
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

  /**
   * {@link #metaJson} as UTF-8 bytes for the attributes {@code entries}, whose tags {@code tag}
   * gives: written straight into bytes when every name and tag is one {@link PlainJsonWriter}
   * writes as the encoder does (no map of tags, no String on the way), else through
   * {@link #metaJson}. The same bytes either way ({@code StoredStateTest}).
   */
  static <V> byte[] metaBytes(long created, int maxInactive, Map<String, V> entries,
      java.util.function.Function<? super V, String> tag) {
    byte[] direct = PlainJsonWriter.meta(created, maxInactive, entries, tag);
    if (direct != null) {
      return direct;
    }
    Map<String, String> tags = new java.util.LinkedHashMap<>();
    for (Map.Entry<String, V> e : entries.entrySet()) {
      tags.put(e.getKey(), tag.apply(e.getValue()));
    }
    return metaJson(created, maxInactive, tags).getBytes(java.nio.charset.StandardCharsets.UTF_8);
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
