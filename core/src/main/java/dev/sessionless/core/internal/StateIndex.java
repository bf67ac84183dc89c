package dev.sessionless.core.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenException.Reason;
import java.io.IOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where each named value sits in a token's state object; built on first access. Strict: a
 * duplicated member at any depth, an unpaired surrogate anywhere, or a top-level name that is
 * empty or over 256 characters makes the state unreadable.
 */
public final class StateIndex {
  /** The longest state name, in chars; as {@code Claims.Builder#put}. */
  public static final int MAX_NAME = 256;
  private static final StateIndex EMPTY = new StateIndex(Collections.emptyMap());

  private final Map<String, int[]> spans;

  private StateIndex(Map<String, int[]> spans) {
    this.spans = spans;
  }

  /** The index of an absent state. */
  public static StateIndex empty() {
    return EMPTY;
  }

  /** The spans {@code [start, end)} of each top-level value, by name, in token order. */
  public Map<String, int[]> spans() {
    return spans;
  }

  /**
   * Indexes the state object {@code json}.
   *
   * @throws TokenException {@code MALFORMED} if the state is not a strictly valid JSON object
   */
  public static StateIndex of(byte[] json) {
    Map<String, int[]> spans = new LinkedHashMap<>();
    try (JsonParser p = Json.STRICT_NO_DUPLICATES.createParser(json)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw bad();
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
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
    } catch (IOException e) {
      throw new TokenException(Reason.MALFORMED, "the token's state is not valid JSON", e);
    }
    return new StateIndex(Collections.unmodifiableMap(spans));
  }

  private static void walk(JsonParser p, JsonToken t) throws IOException {
    int depth = 0;
    do {
      if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
        depth++;
      } else if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
        depth--;
      } else if (t == JsonToken.VALUE_STRING || t == JsonToken.FIELD_NAME) {
        if (!Utf8.hasNoLoneSurrogate(p.getTextCharacters(), p.getTextOffset(), p.getTextLength())) {
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
