package dev.sessionless.core.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;

/** The JSON factories the token reader and writer use. */
public final class Json {
  /** Deepest nesting accepted anywhere in a header or payload. */
  public static final int MAX_DEPTH = 32;

  /**
   * Strict streaming factory for payloads: no comments, no lenient forms (Jackson's defaults),
   * a nesting limit, and no input echoed into error locations.
   */
  public static final JsonFactory STRICT =
      JsonFactory.builder()
          .streamReadConstraints(
              StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).maxNumberLength(64).build())
          .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
          .build();

  /** As {@link #STRICT}, and refuses a duplicated member name anywhere; for the rarely read parts. */
  public static final JsonFactory STRICT_NO_DUPLICATES =
      JsonFactory.builder()
          .streamReadConstraints(
              StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).maxNumberLength(64).build())
          .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .build();

  static {
    STRICT.disable(JsonParser.Feature.AUTO_CLOSE_SOURCE);
  }

  private Json() {}
}
