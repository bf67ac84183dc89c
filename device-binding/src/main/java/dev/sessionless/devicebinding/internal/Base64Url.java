package dev.sessionless.devicebinding.internal;

import dev.sessionless.devicebinding.DeviceBindingException;
import dev.sessionless.devicebinding.DeviceBindingException.Reason;
import java.util.Base64;

/**
 * Strict base64url without padding (RFC 7515 section 2): one spelling per byte string, so a
 * value that decodes is exactly the one that was signed or hashed.
 */
public final class Base64Url {
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

  private Base64Url() {}

  /** Encodes without padding. */
  public static String encode(byte[] bytes) {
    return ENCODER.encodeToString(bytes);
  }

  /**
   * Decodes {@code text}, refusing padding, characters outside the base64url alphabet, a
   * length no encoding has, and non-zero unused bits (a second spelling of the same bytes).
   *
   * @param what what the text is, for the message
   * @throws DeviceBindingException {@code MALFORMED}
   */
  public static byte[] decode(String text, String what) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
      if (!ok) {
        throw malformed(what);
      }
    }
    if (text.length() % 4 == 1) {
      throw malformed(what);
    }
    byte[] bytes = DECODER.decode(text);
    if (!ENCODER.encodeToString(bytes).equals(text)) {
      throw malformed(what);
    }
    return bytes;
  }

  private static DeviceBindingException malformed(String what) {
    return new DeviceBindingException(Reason.MALFORMED, what + " is not unpadded base64url (RFC 7515): send it as"
        + " the draft's JWS compact serialization does");
  }
}
