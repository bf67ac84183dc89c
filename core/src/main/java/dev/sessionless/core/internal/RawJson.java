package dev.sessionless.core.internal;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * One complete, already validated JSON value that the token writer copies verbatim: a state
 * value or claim carried over from a verified token, or one the servlet filter serialised
 * itself. Either a {@code String} or a range of UTF-8 bytes; the byte form is copied straight
 * into the payload, so a value that arrived as bytes never becomes a {@code String} on its way
 * to the next token.
 *
 * <p>The byte form holds the caller's array without copying it: the caller guarantees that
 * {@code bytes[off, off + len)} never changes (a verified token's state, or an array the filter
 * no longer writes to). {@link #toString()} shows the length only, never the JSON.
 */
public final class RawJson {
  private final String text;
  private final byte[] bytes;
  private final int off;
  private final int len;

  /** @param json one complete, already validated JSON value */
  public RawJson(String json) {
    this.text = Objects.requireNonNull(json, "json");
    this.bytes = null;
    this.off = 0;
    this.len = json.length();
  }

  /**
   * The JSON value in {@code bytes[off, off + len)}, as UTF-8, held without a copy.
   *
   * @throws IndexOutOfBoundsException if the range lies outside {@code bytes}
   */
  public RawJson(byte[] bytes, int off, int len) {
    Objects.checkFromIndexSize(off, len, bytes.length);
    this.text = null;
    this.bytes = bytes;
    this.off = off;
    this.len = len;
  }

  /** The JSON text (for the byte form, decoded from UTF-8 each time). */
  public String json() {
    return text != null ? text : new String(bytes, off, len, StandardCharsets.UTF_8);
  }

  /** Whether this value is held as bytes ({@link #writeTo} copies them as they are). */
  public boolean isBytes() {
    return bytes != null;
  }

  /**
   * Appends the JSON's UTF-8 bytes to {@code sink}: the byte form as it is, the text form
   * encoded.
   */
  public void writeTo(ByteSink sink) {
    if (bytes != null) {
      sink.write(bytes, off, len);
    } else {
      byte[] b = text.getBytes(StandardCharsets.UTF_8);
      sink.write(b, 0, b.length);
    }
  }

  @Override
  public String toString() {
    return "RawJson[" + len + (bytes != null ? " bytes]" : " chars]");
  }
}
