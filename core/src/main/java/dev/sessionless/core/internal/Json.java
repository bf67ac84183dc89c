package dev.sessionless.core.internal;

import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.json.JsonFactoryBuilder;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.util.JsonRecyclerPools;

/**
 * The JSON factories the token reader and writer use. None uses Jackson's default per-thread
 * buffer recycling (see {@link Pool} for why nothing is kept per thread).
 */
public final class Json {
  /** Deepest nesting accepted anywhere in a header or payload. */
  public static final int MAX_DEPTH = 32;

  /**
   * Strict streaming factory for payloads: no comments, no lenient forms (Jackson's defaults),
   * a nesting limit, and no input echoed into error locations.
   */
  public static final JsonFactory STRICT = strict().disable(StreamReadFeature.AUTO_CLOSE_SOURCE).build();

  /** As {@link #STRICT}, and refuses a duplicated member name anywhere; for the rarely read parts. */
  public static final JsonFactory STRICT_NO_DUPLICATES =
      strict().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

  private static JsonFactoryBuilder strict() {
    return JsonFactory.builder()
        .streamReadConstraints(
            StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).maxNumberLength(64).build())
        .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
        .recyclerPool(JsonRecyclerPools.sharedBoundedPool());
  }

  /**
   * A plain factory (Jackson's defaults) for the default state mapper. Like the two above, its
   * buffers are recycled through a shared pool rather than Jackson's default per-thread one,
   * which would keep Jackson objects reachable from every thread that ever encoded a token.
   * The bounded pool (an array queue) rather than the deque pool: the deque allocates a node for
   * every buffer it takes back, several per request.
   */
  public static JsonFactory plainFactory() {
    return JsonFactory.builder().recyclerPool(JsonRecyclerPools.sharedBoundedPool()).build();
  }

  /**
   * Whether Jackson reads {@code b[off, off + len)} as UTF-8. Given bytes, Jackson guesses the
   * encoding: a NUL among the first four bytes makes it read UTF-16 or UTF-32, and it skips a
   * UTF-8 byte order mark. Neither can start a JSON text in strict UTF-8 (RFC 8259 section 8.1,
   * RFC 7515), so both are refused before parsing.
   */
  public static boolean readsAsUtf8(byte[] b, int off, int len) {
    int end = off + Math.min(len, 4);
    for (int i = off; i < end; i++) {
      if (b[i] == 0) {
        return false;
      }
    }
    return !(len >= 3 && b[off] == (byte) 0xEF && b[off + 1] == (byte) 0xBB && b[off + 2] == (byte) 0xBF);
  }

  private Json() {}
}
