package dev.sessionless.core;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import dev.sessionless.core.internal.Base64Url;
import dev.sessionless.core.internal.Json;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes the protected header a {@link TokenKey} puts on its tokens, base64url-encoded as it
 * stands in a compact token: {@code alg}, {@code enc} for encryption, {@code zip} when
 * compressed, {@code kid}, and {@code typ} for a codec with a token type.
 */
final class JoseHeader {
  private JoseHeader() {}

  /** The encoded header; {@code typ} may be null (none). */
  static byte[] encode(Algorithm algorithm, String kid, Compression zip, String typ) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(64);
    try (JsonGenerator g = Json.STRICT.createGenerator(out)) {
      g.writeStartObject();
      g.writeStringProperty("alg", algorithm.joseName());
      if (algorithm.isEncrypting()) {
        g.writeStringProperty("enc", algorithm.encryption().orElseThrow());
      }
      if (zip != Compression.NONE) {
        g.writeStringProperty("zip", zip.zipValue());
      }
      g.writeStringProperty("kid", kid);
      if (typ != null) {
        g.writeStringProperty("typ", typ);
      }
      g.writeEndObject();
    } catch (JacksonException e) {
      throw new IllegalStateException("writing a header to memory failed", e);
    }
    byte[] json = out.toByteArray();
    return Base64Url.encode(json).getBytes(StandardCharsets.US_ASCII);
  }
}
