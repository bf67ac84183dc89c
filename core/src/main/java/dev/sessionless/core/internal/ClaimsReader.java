package dev.sessionless.core.internal;

import static dev.sessionless.core.internal.ClaimRules.AUD;
import static dev.sessionless.core.internal.ClaimRules.EXP;
import static dev.sessionless.core.internal.ClaimRules.IAT;
import static dev.sessionless.core.internal.ClaimRules.ISS;
import static dev.sessionless.core.internal.ClaimRules.JTI;
import static dev.sessionless.core.internal.ClaimRules.NBF;
import static dev.sessionless.core.internal.ClaimRules.ST;
import static dev.sessionless.core.internal.ClaimRules.SUB;

import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenException.Reason;
import tools.jackson.core.JacksonException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * Reads a payload's registered claims with Jackson's streaming parser, in one pass and without
 * building a tree. Strict: the payload is one JSON object with nothing after it, no member
 * appears twice (names compared after unescaping, so {@code "\u0065xp"} is {@code "exp"}),
 * registered claims have their JSON types, NumericDates are non-negative integers that fit a
 * long, {@code jti} is 1 to 128 characters, and the application state claim is left as bytes.
 */
public final class ClaimsReader {
  private static final int MAX_SESSION_ID = ClaimRules.MAX_SESSION_ID;
  private static final long MAX_NUMERIC_DATE = ClaimRules.MAX_NUMERIC_DATE;
  private static final String STATE_CLAIM = ClaimRules.STATE_CLAIM;

  private ClaimsReader() {}

  /**
   * Reads {@code buf[0, len)} into {@code out}.
   *
   * @param expected the expected {@code iss} and {@code aud} member
   * @throws TokenException {@code MALFORMED} for anything but a well-formed, strictly typed payload
   */
  public static void read(byte[] buf, int len, ExpectedClaims expected, ParsedClaims out) {
    if (!FastPaths.on(FastPaths.Path.CLAIMS) || !FastClaims.tryRead(buf, len, expected, out)) {
      readWithJackson(buf, len, expected.issuer, expected.audience, out);
    }
  }

  /**
   * Reads {@code buf[0, len)} into {@code out} with Jackson's streaming parser: every payload
   * {@link FastClaims} hands over, and the reference a differential test holds it to.
   *
   * @throws TokenException {@code MALFORMED} for anything but a well-formed, strictly typed payload
   */
  public static void readWithJackson(byte[] buf, int len, char[] issuer, char[] audience, ParsedClaims out) {
    out.reset();
    if (!Json.readsAsUtf8(buf, 0, len)) {
      throw malformed("the payload is not a UTF-8 JSON text (a byte order mark, or UTF-16/32)");
    }
    try (JsonParser p = Json.STRICT.createParser(buf, 0, len)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw malformed("the payload is not a JSON object");
      }
      int seen = 0;
      List<String> others = null;
      JsonToken t;
      while ((t = p.nextToken()) == JsonToken.PROPERTY_NAME) {
        String name = p.currentName();
        int bit = bit(name);
        if (bit != 0) {
          if ((seen & bit) != 0) {
            throw malformed("the claim '" + name + "' appears more than once");
          }
          seen |= bit;
        } else {
          if (name.isEmpty() || name.length() > ClaimRules.MAX_NAME) {
            throw malformed("a claim name is empty or over " + ClaimRules.MAX_NAME + " characters");
          }
          if (others == null) {
            others = new ArrayList<>(4);
          } else if (others.contains(name)) {
            throw malformed("a claim appears more than once");
          }
          others.add(name);
        }
        JsonToken v = p.nextToken();
        switch (bit) {
          case ISS:
            requireString(v, name);
            out.issuerPresent = true;
            out.issuerMatched = textEquals(p, issuer);
            break;
          case AUD:
            out.audiencePresent = true;
            if (v == JsonToken.VALUE_STRING) {
              out.audienceMatched = textEquals(p, audience);
            } else if (v == JsonToken.START_ARRAY) {
              boolean match = false;
              while ((v = p.nextToken()) != JsonToken.END_ARRAY) {
                requireString(v, name);
                match |= textEquals(p, audience);
              }
              out.audienceMatched = match;
            } else {
              throw malformed("the claim 'aud' is neither a string nor an array of strings");
            }
            break;
          case SUB:
            requireString(v, name);
            out.subject = checkedText(p, name);
            break;
          case JTI:
            requireString(v, name);
            out.id = checkedText(p, name);
            if (out.id.isEmpty() || out.id.length() > MAX_SESSION_ID) {
              // Claims.Builder#sessionId's range, so toClaims() can carry any accepted session on.
              throw malformed("the claim 'jti' is not a session id of 1 to " + MAX_SESSION_ID + " characters");
            }
            break;
          case EXP:
            out.expiresAt = numericDate(p, v, name);
            break;
          case NBF:
            out.notBefore = numericDate(p, v, name);
            break;
          case IAT:
            out.issuedAt = numericDate(p, v, name);
            break;
          case ST:
            if (v != JsonToken.START_OBJECT) {
              throw malformed("the state claim is not a JSON object");
            }
            out.stateStart = (int) p.currentTokenLocation().getByteOffset();
            p.skipChildren();
            out.stateEnd = (int) p.currentLocation().getByteOffset();
            break;
          default: {
            // Another claim: kept as its JSON text for SessionToken's claim access. Our session
            // tokens carry none (FastClaims reads them), so their hot path never pays for this.
            int start = (int) p.currentTokenLocation().getByteOffset();
            if (v == JsonToken.START_OBJECT || v == JsonToken.START_ARRAY) {
              // It still must not repeat a member anywhere inside it: read its bytes again with
              // a duplicate-refusing parser.
              p.skipChildren();
              int end = (int) p.currentLocation().getByteOffset();
              try (JsonParser q = Json.STRICT_NO_DUPLICATES.createParser(buf, start, end - start)) {
                while (q.nextToken() != null) {
                  // reading is the check
                }
              }
            } else {
              p.getString(); // reads the whole value, so the location below is its end
            }
            int end = (int) p.currentLocation().getByteOffset();
            if (out.others == null) {
              out.others = new LinkedHashMap<>(4);
            }
            out.others.put(name, new String(buf, start, end - start, StandardCharsets.UTF_8));
          }
        }
      }
      if (t != JsonToken.END_OBJECT) {
        throw malformed("the payload is not a JSON object");
      }
      if (p.nextToken() != null) {
        throw malformed("the payload has data after its JSON object");
      }
    } catch (JacksonException e) {
      throw new TokenException(Reason.MALFORMED, "the payload is not valid JSON", e);
    }
  }

  private static int bit(String name) {
    switch (name) {
      case "iss":
        return ISS;
      case "sub":
        return SUB;
      case "aud":
        return AUD;
      case "exp":
        return EXP;
      case "nbf":
        return NBF;
      case "iat":
        return IAT;
      case "jti":
        return JTI;
      case STATE_CLAIM:
        return ST;
      default:
        return 0;
    }
  }

  private static void requireString(JsonToken v, String name) {
    if (v != JsonToken.VALUE_STRING) {
      throw malformed("the claim '" + name + "' is not a string");
    }
  }

  private static String checkedText(JsonParser p, String name) {
    String s = p.getString();
    if (!Utf8.hasNoLoneSurrogate(s)) {
      throw malformed("the claim '" + name + "' holds an unpaired surrogate");
    }
    return s;
  }

  private static boolean textEquals(JsonParser p, char[] expected) {
    int n = p.getStringLength();
    if (n != expected.length) {
      return false;
    }
    char[] chars = p.getStringCharacters();
    int off = p.getStringOffset();
    for (int i = 0; i < n; i++) {
      if (chars[off + i] != expected[i]) {
        return false;
      }
    }
    return true;
  }

  private static long numericDate(JsonParser p, JsonToken v, String name) {
    if (v != JsonToken.VALUE_NUMBER_INT) {
      throw malformed("the claim '" + name + "' is not an integer NumericDate");
    }
    JsonParser.NumberType type = p.getNumberType();
    if (type != JsonParser.NumberType.INT && type != JsonParser.NumberType.LONG) {
      throw malformed("the claim '" + name + "' is out of range");
    }
    long value = p.getLongValue();
    if (value < 0 || value > MAX_NUMERIC_DATE) {
      throw malformed("the claim '" + name + "' is out of range");
    }
    return value;
  }

  private static TokenException malformed(String message) {
    return new TokenException(Reason.MALFORMED, message);
  }
}
