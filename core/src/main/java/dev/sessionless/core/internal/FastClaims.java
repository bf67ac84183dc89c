package dev.sessionless.core.internal;

import static dev.sessionless.core.internal.ClaimRules.AUD;
import static dev.sessionless.core.internal.ClaimRules.EXP;
import static dev.sessionless.core.internal.ClaimRules.IAT;
import static dev.sessionless.core.internal.ClaimRules.ISS;
import static dev.sessionless.core.internal.ClaimRules.JTI;
import static dev.sessionless.core.internal.ClaimRules.NBF;
import static dev.sessionless.core.internal.ClaimRules.ST;
import static dev.sessionless.core.internal.ClaimRules.SUB;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The hot-path payload reader: a byte scanner that accepts only a narrow, common shape of
 * payload and hands everything else to {@link ClaimsReader}'s Jackson path.
 *
 * <p>Security note: this class never rejects anything. It either reads the payload completely
 * and answers {@code true}, with {@code out} filled exactly as the Jackson path would fill it,
 * or answers {@code false} and the caller reads the payload again with Jackson, which decides
 * and words any rejection. So its one duty is never to accept what the Jackson path refuses,
 * and it keeps that duty simple by accepting little:
 *
 * <ul>
 *   <li>no whitespace anywhere, and nothing before the opening or after the closing brace;
 *   <li>top-level members are only the registered claims {@code iss sub aud exp nbf iat jti}
 *       and the state claim {@code st}, each at most once, names without escapes;
 *   <li>{@code iss}, {@code sub}, {@code aud} (a string or an array of strings) and {@code jti}
 *       are printable ASCII without escapes; NumericDates are plain non-negative integers of at
 *       most 15 digits without a leading zero;
 *   <li>the state is a JSON object no deeper than {@link #MAX_STATE_DEPTH}, validated by the
 *       RFC 8259 grammar (strings checked for control characters and escape syntax, numbers by
 *       the strict number grammar, literals spelled out). UTF-8 well-formedness is checked by
 *       the caller before either reader runs. Most states are validated by {@link
 *       StateScanner}, which indexes them in the same pass ({@link ParsedClaims#stateLayout});
 *       the scanner also takes whitespace between a state's tokens, which the Jackson path
 *       takes too.
 * </ul>
 *
 * A differential test runs both readers over mutated payloads and fails if this one accepts
 * anything the Jackson path refuses or reads it differently.
 *
 * <p>Switch: {@code -Ddev.sessionless.fastpath.claims=off} ({@link FastPaths.Path#CLAIMS}); then
 * {@link ClaimsReader}'s Jackson path reads every payload.
 */
final class FastClaims {
  /** Deepest state nesting (the state object itself is 1) this reader follows before handing over. */
  static final int MAX_STATE_DEPTH = 16;
  private static final int MAX_NUMBER_CHARS = 40;
  private static final int MAX_NAME_BYTES = 1024;

  /** Printable ASCII, no quote or backslash: the only bytes of a claim string this reader takes. */
  private static final boolean[] PLAIN = new boolean[128];

  static {
    for (int c = 0x20; c < 0x7f; c++) {
      PLAIN[c] = c != '"' && c != '\\';
    }
  }

  private FastClaims() {}

  /**
   * Reads {@code buf[0, len)} into {@code out} if it has the common shape.
   *
   * @return {@code true} when {@code out} holds the claims; {@code false} when the payload must
   *     be read by the Jackson path ({@code out} is then in an unspecified state)
   */
  public static boolean tryRead(byte[] buf, int len, ExpectedClaims expected, ParsedClaims out) {
    out.reset();
    if (len < 2 || buf[0] != '{' || buf[len - 1] != '}') {
      return false;
    }
    int seen = 0;
    int i = 1;
    int end = len - 1; // index of the closing brace
    if (i == end) {
      return true; // {}: no claims; the codec reports the missing ones
    }
    byte[] head = expected.head;
    if (head != null && head.length < end && Arrays.equals(buf, 0, head.length, head, 0, head.length)) {
      // This library's own payloads start with the expected iss and aud: both in one compare.
      seen = ISS | AUD;
      out.issuerPresent = true;
      out.issuerMatched = true;
      out.audiencePresent = true;
      out.audienceMatched = true;
      i = head.length;
    }
    while (true) {
      // "name":
      if (i + 4 > end || buf[i] != '"') {
        return false;
      }
      int bit = claim(buf, i + 1, end);
      if (bit == 0 || (seen & bit) != 0) {
        return false;
      }
      seen |= bit;
      i += bit == ST ? 4 : 5; // quote, name, quote
      if (i >= end || buf[i] != ':') {
        return false;
      }
      i++;
      switch (bit) {
        case ISS: {
          // The expected value first, in one step; any other plain string is another issuer.
          int e = expectedString(buf, i, end, expected.plainIssuer);
          out.issuerMatched = e > 0;
          if (e < 0 && (e = plainString(buf, i, end)) < 0) {
            return false;
          }
          out.issuerPresent = true;
          i = e;
          break;
        }
        case AUD: {
          out.audiencePresent = true;
          if (i < end && buf[i] == '[') {
            i++;
            boolean match = false;
            if (i < end && buf[i] == ']') {
              i++;
            } else {
              while (true) {
                int e = expectedString(buf, i, end, expected.plainAudience);
                match |= e > 0;
                if (e < 0 && (e = plainString(buf, i, end)) < 0) {
                  return false;
                }
                i = e;
                if (i < end && buf[i] == ',') {
                  i++;
                } else if (i < end && buf[i] == ']') {
                  i++;
                  break;
                } else {
                  return false;
                }
              }
            }
            out.audienceMatched = match;
          } else {
            int e = expectedString(buf, i, end, expected.plainAudience);
            out.audienceMatched = e > 0;
            if (e < 0 && (e = plainString(buf, i, end)) < 0) {
              return false;
            }
            i = e;
          }
          break;
        }
        case SUB:
        case JTI: {
          int e = plainString(buf, i, end);
          if (e < 0) {
            return false;
          }
          int n = e - i - 2;
          String s = new String(buf, i + 1, n, StandardCharsets.ISO_8859_1);
          if (bit == SUB) {
            out.subject = s;
          } else {
            if (n < 1 || n > ClaimRules.MAX_SESSION_ID) {
              return false;
            }
            out.id = s;
          }
          i = e;
          break;
        }
        case EXP:
        case NBF:
        case IAT: {
          int start = i;
          long v = 0;
          while (i < end && buf[i] >= '0' && buf[i] <= '9') {
            v = v * 10 + (buf[i] - '0');
            i++;
          }
          int digits = i - start;
          if (digits == 0 || digits > 15 || (digits > 1 && buf[start] == '0') || v > ClaimRules.MAX_NUMERIC_DATE) {
            return false;
          }
          if (bit == EXP) {
            out.expiresAt = v;
          } else if (bit == NBF) {
            out.notBefore = v;
          } else {
            out.issuedAt = v;
          }
          break;
        }
        default: { // ST
          if (i >= end || buf[i] != '{') {
            return false;
          }
          // The common state is validated and indexed in one pass; a state the scanner hands
          // over (a duplicated name, an escaped name, ...) is validated here and indexed on read.
          int e = FastPaths.on(FastPaths.Path.STATE) ? StateScanner.scanEmbedded(buf, i, end, out) : -1;
          if (e < 0) {
            e = value(buf, i, end, 1);
          }
          if (e < 0) {
            return false;
          }
          out.stateStart = i;
          out.stateEnd = e;
          i = e;
        }
      }
      if (i == end) {
        return true;
      }
      if (buf[i] != ',') {
        return false;
      }
      i++;
    }
  }

  /** The claim bit of the quoted name starting at {@code i} (just after its opening quote), or 0. */
  private static int claim(byte[] b, int i, int end) {
    if (i + 2 < end && b[i + 2] == '"') {
      if (b[i] == 's' && b[i + 1] == 't') {
        return ST;
      }
      return 0;
    }
    if (i + 3 >= end || b[i + 3] != '"') {
      return 0;
    }
    int c0 = b[i];
    int c1 = b[i + 1];
    int c2 = b[i + 2];
    switch (c0) {
      case 'i':
        if (c1 == 's' && c2 == 's') {
          return ISS;
        }
        return c1 == 'a' && c2 == 't' ? IAT : 0;
      case 's':
        return c1 == 'u' && c2 == 'b' ? SUB : 0;
      case 'a':
        return c1 == 'u' && c2 == 'd' ? AUD : 0;
      case 'e':
        return c1 == 'x' && c2 == 'p' ? EXP : 0;
      case 'n':
        return c1 == 'b' && c2 == 'f' ? NBF : 0;
      case 'j':
        return c1 == 't' && c2 == 'i' ? JTI : 0;
      default:
        return 0;
    }
  }

  /**
   * The index after the quoted string at {@code i} if it is exactly {@code plain} (the bytes of
   * a plain expected value, or {@code null} when no plain string can equal it), else -1.
   */
  private static int expectedString(byte[] b, int i, int end, byte[] plain) {
    if (plain == null) {
      return -1;
    }
    int close = i + 1 + plain.length;
    if (close >= end || b[i] != '"' || b[close] != '"') {
      return -1;
    }
    return Arrays.equals(b, i + 1, close, plain, 0, plain.length) ? close + 1 : -1;
  }

  /** The index after a quoted string of printable ASCII without escapes at {@code i}, or -1. */
  private static int plainString(byte[] b, int i, int end) {
    if (i >= end || b[i] != '"') {
      return -1;
    }
    int j = i + 1;
    // Eight bytes a step: the first byte that is not plain content (or the closing quote).
    for (; j + Long.BYTES <= end; j += Long.BYTES) {
      long stops = Words.notPlain(Words.at(b, j));
      if (stops != 0) {
        j += Long.numberOfTrailingZeros(stops) >>> 3;
        return b[j] == '"' ? j + 1 : -1;
      }
    }
    for (; j < end; j++) {
      int c = b[j];
      if (c == '"') {
        return j + 1;
      }
      if (c < 0 || !PLAIN[c]) {
        return -1;
      }
    }
    return -1;
  }

  /**
   * Validates one JSON value without whitespace at {@code i}, which is before {@code end}.
   *
   * @return the index after the value, or -1 to hand over to the Jackson path
   */
  private static int value(byte[] b, int i, int end, int depth) {
    int c = b[i];
    switch (c) {
      case '{':
      case '[': {
        if (depth > MAX_STATE_DEPTH) {
          return -1;
        }
        boolean object = c == '{';
        byte close = (byte) (object ? '}' : ']');
        i++;
        if (i < end && b[i] == close) {
          return i + 1;
        }
        while (true) {
          if (object) {
            int s = i;
            // A name's escaped surrogates must pair up: Jackson refuses a broken pair in a name
            // (not in a value), so such a name is handed over for it to word the refusal.
            i = i < end && b[i] == '"' ? JsonScan.string(b, i + 1, end, true) : -1;
            if (i < 0 || i - s > MAX_NAME_BYTES || i >= end || b[i] != ':') {
              return -1;
            }
            i++;
          }
          if (i >= end) {
            return -1;
          }
          i = value(b, i, end, depth + 1);
          if (i < 0 || i >= end) {
            return -1;
          }
          c = b[i++];
          if (c == close) {
            return i;
          }
          if (c != ',') {
            return -1;
          }
        }
      }
      case '"':
        return string(b, i, end);
      case 't':
      case 'f':
      case 'n':
        return JsonScan.literal(b, i, end);
      default:
        return JsonScan.number(b, i, end, MAX_NUMBER_CHARS);
    }
  }

  /** A string at {@code i} (its opening quote): control characters refused, escapes checked. */
  private static int string(byte[] b, int i, int end) {
    return i < end && b[i] == '"' ? JsonScan.string(b, i + 1, end, false) : -1;
  }
}
