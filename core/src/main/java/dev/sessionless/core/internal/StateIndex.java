package dev.sessionless.core.internal;

import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenException.Reason;
import tools.jackson.core.JacksonException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where each named value sits in a token's state object; built on first access and kept with
 * the token. Strict: a duplicated member at any depth, an unpaired surrogate anywhere, or a
 * top-level name that is empty or over 256 characters makes the state unreadable.
 *
 * <p>Built by {@link StateScanner} (offsets only, no map and no strings) when the state has the
 * common shape, else by Jackson with duplicate detection, which also decides every rejection.
 */
public final class StateIndex {
  /** The longest state name, in chars; as {@code Claims.Builder#put}. */
  public static final int MAX_NAME = ClaimRules.MAX_NAME;
  private static final StateIndex EMPTY = new StateIndex(null, null, Collections.emptyMap());

  /** The state's bytes, when {@link #layout} points into them. */
  private final byte[] json;
  /** Per member: name start, name end, value start, value end; {@code null} when built by Jackson. */
  private final int[] layout;
  /** The spans by name: given when built by Jackson, else made on first use. */
  private volatile Map<String, int[]> spans;

  private StateIndex(byte[] json, int[] layout, Map<String, int[]> spans) {
    this.json = json;
    this.layout = layout;
    this.spans = spans;
  }

  /** The index of an absent state. */
  public static StateIndex empty() {
    return EMPTY;
  }

  /**
   * The span of the value named {@code name}: {@code start << 32 | end}, or -1 if the state has
   * no such value (or {@code name} is null).
   */
  public long find(String name) {
    int[] l = layout;
    if (name == null) {
      return -1;
    }
    if (l == null) {
      int[] s = spans.get(name);
      return s == null ? -1 : (long) s[0] << 32 | s[1];
    }
    boolean ascii = isAscii(name);
    byte[] utf8 = null;
    if (!ascii) {
      if (!Utf8.hasNoLoneSurrogate(name)) {
        return -1; // no state name has one
      }
      utf8 = name.getBytes(StandardCharsets.UTF_8);
    }
    int len = name.length();
    for (int k = 0; k < l.length; k += 4) {
      int from = l[k];
      int to = l[k + 1];
      if (ascii ? to - from == len && asciiEquals(from, name) : Arrays.equals(json, from, to, utf8, 0, utf8.length)) {
        return (long) l[k + 2] << 32 | l[k + 3];
      }
    }
    return -1;
  }

  /** Whether the bytes at {@code from} spell the ASCII {@code name}. */
  private boolean asciiEquals(int from, String name) {
    for (int k = 0, n = name.length(); k < n; k++) {
      if (json[from + k] != name.charAt(k)) {
        return false;
      }
    }
    return true;
  }

  private static boolean isAscii(String s) {
    for (int k = 0, n = s.length(); k < n; k++) {
      if (s.charAt(k) >= 0x80) {
        return false;
      }
    }
    return true;
  }

  /** Whether the scanner built this index (offsets only), not Jackson (for tests). */
  boolean spansFromScanner() {
    return layout != null;
  }

  /** The spans {@code [start, end)} of each top-level value, by name, in token order. */
  public Map<String, int[]> spans() {
    Map<String, int[]> s = spans;
    if (s == null) {
      Map<String, int[]> m = new LinkedHashMap<>();
      for (int k = 0; k < layout.length; k += 4) {
        String name = new String(json, layout[k], layout[k + 1] - layout[k], StandardCharsets.UTF_8);
        m.put(name, new int[] {layout[k + 2], layout[k + 3]});
      }
      s = Collections.unmodifiableMap(m);
      spans = s;
    }
    return s;
  }

  /**
   * The index of the state object {@code json} whose layout {@link StateScanner} already found
   * while the payload was read ({@link ParsedClaims#stateLayout}).
   */
  public static StateIndex ofLayout(byte[] json, int[] layout) {
    return new StateIndex(json, layout, null);
  }

  /**
   * Indexes the state object {@code json}.
   *
   * @throws TokenException {@code MALFORMED} if the state is not a strictly valid JSON object
   */
  public static StateIndex of(byte[] json) {
    int[] layout = FastPaths.on(FastPaths.Path.STATE) ? StateScanner.scan(json) : null;
    return layout != null ? new StateIndex(json, layout, null) : byJackson(json);
  }

  /**
   * Indexes the state object {@code json} with Jackson, refusing duplicates: the reference the
   * scanner is held to, and the path for every state the scanner hands over.
   *
   * @throws TokenException {@code MALFORMED} if the state is not a strictly valid JSON object
   */
  public static StateIndex byJackson(byte[] json) {
    Map<String, int[]> spans = new LinkedHashMap<>();
    try (JsonParser p = Json.STRICT_NO_DUPLICATES.createParser(json)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw bad();
      }
      while (p.nextToken() == JsonToken.PROPERTY_NAME) {
        String name = p.currentName();
        if (!Utf8.hasNoLoneSurrogate(name) || name.isEmpty() || name.length() > MAX_NAME) {
          throw bad(); // a name Claims.Builder#put refuses could not be carried on by toClaims()
        }
        JsonToken t = p.nextToken();
        int start = (int) p.currentTokenLocation().getByteOffset();
        walk(p, t);
        int end = (int) p.currentLocation().getByteOffset();
        spans.put(name, new int[] {start, end});
      }
      if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
        throw bad();
      }
    } catch (JacksonException e) {
      throw new TokenException(Reason.MALFORMED, "the token's state is not valid JSON", e);
    }
    return new StateIndex(null, null, Collections.unmodifiableMap(spans));
  }

  private static void walk(JsonParser p, JsonToken t) {
    int depth = 0;
    do {
      if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
        depth++;
      } else if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
        depth--;
      } else if (t == JsonToken.VALUE_STRING || t == JsonToken.PROPERTY_NAME) {
        if (!Utf8.hasNoLoneSurrogate(p.getStringCharacters(), p.getStringOffset(), p.getStringLength())) {
          throw bad();
        }
      } else if (t == null) {
        throw bad();
      }
      if (depth == 0) {
        return;
      }
      t = p.nextToken();
    } while (true);
  }

  private static TokenException bad() {
    return new TokenException(Reason.MALFORMED, "the token's state is not a strictly valid JSON object");
  }
}
