package dev.sessionless.core.internal;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/** The Jackson mapper for JWK and JWKS documents (off the hot path): strict about duplicates. */
public final class JwkJson {
  /** A mapper that refuses duplicated members and trailing tokens. */
  public static final ObjectMapper MAPPER =
      JsonMapper.builder(Json.STRICT_NO_DUPLICATES)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  /**
   * Parses a JWK or JWKS document.
   *
   * @param what names the document in the error, e.g. "JWKS"
   * @throws IllegalArgumentException if it is not valid JSON or repeats a member. Jackson's own
   *     message is not kept, not even as the cause: it may quote the input, which holds secrets.
   */
  public static JsonNode readTree(String json, String what) {
    try {
      return MAPPER.readTree(json);
    } catch (IOException e) {
      throw new IllegalArgumentException("the " + what + " is not valid JSON (or repeats a member)");
    }
  }

  /**
   * Writes a JWK or JWKS tree as compact JSON through {@link #MAPPER}, not {@code
   * JsonNode.toString()}, whose internal mapper recycles buffers per thread.
   */
  public static String write(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(node);
    } catch (IOException e) {
      throw new UncheckedIOException("writing a JWK to memory failed", e);
    }
  }

  private JwkJson() {}
}
