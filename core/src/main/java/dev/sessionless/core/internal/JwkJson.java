package dev.sessionless.core.internal;

import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

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
    } catch (JacksonException e) {
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
    } catch (JacksonException e) {
      throw new IllegalStateException("writing a JWK to memory failed", e);
    }
  }

  private JwkJson() {}
}
