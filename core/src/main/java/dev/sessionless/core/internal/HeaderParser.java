package dev.sessionless.core.internal;

import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenException.Reason;
import tools.jackson.core.JacksonException;

/**
 * Reads a JOSE header the key set did not write itself (the slow path): decodes it strictly,
 * refuses duplicated members, {@code crit} and {@code cty}, and returns the members that
 * matter ({@code typ} is returned as written; the verifier checks it against its codec's type).
 * Unknown members are ignored as RFC 7515 allows, and never used to find a key.
 */
public final class HeaderParser {
  /** The members of one header. */
  public static final class Header {
    String alg;
    String enc;
    String zip;
    String kid;
    String typ;

    /** The {@code alg} member, or {@code null}. */
    public String alg() {
      return alg;
    }

    /** The {@code enc} member, or {@code null}. */
    public String enc() {
      return enc;
    }

    /** The {@code zip} member, or {@code null}. */
    public String zip() {
      return zip;
    }

    /** The {@code kid} member, or {@code null}. */
    public String kid() {
      return kid;
    }

    /** The {@code typ} member as written, or {@code null}; the verifier binds it to the codec's type. */
    public String typ() {
      return typ;
    }
  }

  private HeaderParser() {}

  /**
   * Parses the header segment {@code b[from, to)}.
   *
   * @throws TokenException {@code MALFORMED} or {@code UNSUPPORTED_HEADER}
   */
  public static Header parse(byte[] b, int from, int to) {
    int n = Base64Url.decodedLength(to - from);
    byte[] json = n < 0 ? null : new byte[n];
    if (json == null || Base64Url.decode(b, from, to, json, 0) != n) {
      throw new TokenException(Reason.MALFORMED, "the header is not canonical base64url");
    }
    if (!Utf8.isValid(json, 0, n) || !Json.readsAsUtf8(json, 0, n)) {
      throw new TokenException(Reason.MALFORMED, "the header is not a UTF-8 JSON text");
    }
    Header h = new Header();
    try (JsonParser p = Json.STRICT_NO_DUPLICATES.createParser(json)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new TokenException(Reason.MALFORMED, "the header is not a JSON object");
      }
      while (p.nextToken() == JsonToken.PROPERTY_NAME) {
        String name = p.currentName();
        JsonToken v = p.nextToken();
        switch (name) {
          case "alg":
            h.alg = string(p, v, name);
            break;
          case "enc":
            h.enc = string(p, v, name);
            break;
          case "zip":
            h.zip = string(p, v, name);
            break;
          case "kid":
            h.kid = string(p, v, name);
            break;
          case "typ":
            h.typ = string(p, v, name);
            break;
          case "crit":
            throw new TokenException(Reason.UNSUPPORTED_HEADER,
                "the header has a crit member; no critical extension is supported");
          case "cty":
            throw new TokenException(Reason.UNSUPPORTED_HEADER,
                "the header has a cty member; nested tokens are not supported");
          default:
            p.skipChildren();
        }
      }
      if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
        throw new TokenException(Reason.MALFORMED, "the header has data after its JSON object");
      }
    } catch (JacksonException e) {
      throw new TokenException(Reason.MALFORMED, "the header is not valid JSON", e);
    }
    return h;
  }

  private static String string(JsonParser p, JsonToken v, String name) {
    if (v != JsonToken.VALUE_STRING) {
      throw new TokenException(Reason.MALFORMED, "the header member " + name + " is not a string");
    }
    String s = p.getString();
    if (!Utf8.hasNoLoneSurrogate(s)) {
      throw new TokenException(Reason.MALFORMED, "the header member " + name + " holds an unpaired surrogate");
    }
    return s;
  }
}
