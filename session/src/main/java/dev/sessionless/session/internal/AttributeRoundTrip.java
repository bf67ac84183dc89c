package dev.sessionless.session.internal;

import dev.sessionless.core.TokenException;
import dev.sessionless.core.internal.Json;
import dev.sessionless.core.internal.StateIndex;
import java.util.List;
import java.util.Map;

/**
 * The parts of {@link AttributeCodec#checkedJson}'s round-trip check that need neither the codec
 * nor the mapper: which values are certain to read back as themselves (so the read-back pass is
 * skipped), a registered record's JSON written and checked on the {@code records} fast path, and
 * the check that the next request's token reader will take the JSON at all.
 */
final class AttributeRoundTrip {
  private AttributeRoundTrip() {}

  /**
   * The JSON of a registered record {@code value} written and checked without the mapper, or
   * {@code null} to leave both to it: written as the mapper writes it, rebuilt through the same
   * constructors from what that JSON holds ({@link PlainJsonWriter#rebuild}: what reading it back
   * would build, without parsing it), and the rebuilt value must write the same bytes; a record
   * whose constructors and accessors are all the compiler's own ({@link RecordPlan#rebuildsUnchanged})
   * would rebuild to the same values, so it is not rebuilt. Such JSON needs no {@link
   * #checkCarried}: it holds no control character or lone surrogate, only numbers of at most 20
   * characters, no duplicated member (component names are distinct), and nests at most twice
   * the plan's depth of eight records (a list and a record per level), well within a token's.
   */
  static byte[] recordJson(Object value, RecordPlan plan) {
    byte[] json = PlainJsonWriter.write(value, plan);
    if (json == null || plan.rebuildsUnchanged) {
      return json; // not plain, or certain to read back as it is (its code stores and returns values as given)
    }
    Object back = PlainJsonWriter.rebuild(value, plan);
    if (back == PlainJsonReader.NOT_PLAIN
        || !Boolean.TRUE.equals(PlainJsonWriter.same(back, plan, json, 0, json.length))) {
      return null;
    }
    return json;
  }

  /**
   * Whether a list or map attribute is made only of what the default mapper reads back as
   * itself: strings, booleans, nulls, {@code Integer}s, {@code Long}s outside the {@code int}
   * range, finite {@code Double}s, and lists and string-keyed maps of these. Jackson reads a JSON
   * array as an {@code ArrayList}, an object as a {@code LinkedHashMap} in the order written, an
   * integer as the smallest of {@code Integer} and {@code Long} that holds it and a decimal as a
   * {@code Double}; so such a value reads back equal (lists and maps compare by content) and, in
   * the same order, writes the same bytes. Anything else ({@code Long} 1, {@code Float}, NaN, a
   * {@code Character}, deeper than {@link AttributeCodec#MAX_DEPTH}) gets the full round trip check.
   */
  static boolean readsBackAsItself(Object v, int depth) {
    if (v == null || v instanceof String || v instanceof Boolean || v instanceof Integer) {
      return true;
    }
    if (v instanceof Long l) {
      return l < Integer.MIN_VALUE || l > Integer.MAX_VALUE;
    }
    if (v instanceof Double d) {
      return Double.isFinite(d);
    }
    if (depth >= AttributeCodec.MAX_DEPTH) {
      return false;
    }
    if (v instanceof List<?> list) {
      for (Object o : list) {
        if (!readsBackAsItself(o, depth + 1)) {
          return false;
        }
      }
      return true;
    }
    if (v instanceof Map<?, ?> map) {
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (!(e.getKey() instanceof String) || !readsBackAsItself(e.getValue(), depth + 1)) {
          return false;
        }
      }
      return true;
    }
    return false;
  }

  /**
   * Refuses JSON that the next request's token reader would refuse, which would lose the whole
   * session there: the value is indexed by core's own strict state reader, one level deep as a
   * token's payload nests it (an unpaired surrogate escape such as Jackson writes for a lone
   * {@code '\uD800'}, a duplicated member, a number longer than 64 digits, nesting deeper than
   * a token may).
   */
  static void checkCarried(String name, Object value, byte[] json) {
    byte[] probe = new byte[json.length + CARRIED_OPEN.length + 2];
    System.arraycopy(CARRIED_OPEN, 0, probe, 0, CARRIED_OPEN.length);
    System.arraycopy(json, 0, probe, CARRIED_OPEN.length, json.length);
    probe[probe.length - 2] = ']';
    probe[probe.length - 1] = '}';
    try {
      StateIndex.of(probe);
    } catch (TokenException e) {
      throw new IllegalArgumentException("session attribute '" + name + "' of type "
          + value.getClass().getName() + " writes JSON that a session token cannot carry (an unpaired"
          + " surrogate, a number over 64 digits, nesting over " + (Json.MAX_DEPTH - 2) + " levels or a"
          + " duplicated member): the next request would lose the session; store a plainer value", e);
    }
  }

  /** A state object holding the value in a one-element array: the depth the payload nests it at. */
  private static final byte[] CARRIED_OPEN = "{\"v\":[".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
}
