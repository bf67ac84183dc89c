package dev.sessionless.devicebinding.internal;

import dev.sessionless.devicebinding.DeviceBindingException;
import dev.sessionless.devicebinding.DeviceBindingException.Reason;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The one JSON mapper of this module: the tree model only (no binding to classes, so no
 * polymorphic typing can be reached), duplicate members refused (a JWS header read one way
 * here and another way elsewhere is a classic confusion), shallow nesting.
 */
public final class Json {
  /** The shared mapper; immutable and thread-safe. */
  public static final JsonMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
          .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(16).build())
          .build())
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .build();

  private Json() {}

  /**
   * Reads a JSON object.
   *
   * @param what what the bytes are, for the message
   * @throws DeviceBindingException {@code MALFORMED} for anything but one JSON object
   */
  public static JsonNode object(byte[] json, String what) {
    JsonNode node;
    try {
      node = MAPPER.readTree(json);
    } catch (JacksonException e) {
      throw new DeviceBindingException(Reason.MALFORMED, what + " is not valid JSON (or repeats a member): send one"
          + " JSON object");
    }
    if (node == null || !node.isObject()) {
      throw new DeviceBindingException(Reason.MALFORMED, what + " is not a JSON object: send one JSON object");
    }
    return node;
  }

  /**
   * The string member {@code name} of {@code object}, or {@code null} if absent.
   *
   * @throws DeviceBindingException {@code MALFORMED} if present but not a string
   */
  public static String optionalString(JsonNode object, String name, String what) {
    JsonNode value = object.get(name);
    if (value == null) {
      return null;
    }
    if (!value.isString()) {
      throw new DeviceBindingException(Reason.MALFORMED, what + "'s \"" + name + "\" is not a string");
    }
    return value.stringValue();
  }

  /**
   * The string member {@code name} of {@code object}.
   *
   * @throws DeviceBindingException {@code MALFORMED} if absent or not a string
   */
  public static String requiredString(JsonNode object, String name, String what) {
    String value = optionalString(object, name, what);
    if (value == null) {
      throw new DeviceBindingException(Reason.MALFORMED, what + " has no \"" + name + "\": the draft requires it");
    }
    return value;
  }
}
