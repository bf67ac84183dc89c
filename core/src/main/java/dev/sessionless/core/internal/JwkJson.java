package dev.sessionless.core.internal;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/** The Jackson mapper for JWK and JWKS documents (off the hot path): strict about duplicates. */
public final class JwkJson {
  /** A mapper that refuses duplicated members and trailing tokens. */
  public static final ObjectMapper MAPPER =
      JsonMapper.builder(Json.STRICT_NO_DUPLICATES)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  private JwkJson() {}
}
