package dev.sessionless.core.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The one base64url decoder: canonical only, padding accepted only where a person may paste it. */
class Base64UrlTest {
  private static final byte[][] SAMPLES = {
    {}, {1}, {1, 2}, {1, 2, 3}, {(byte) 0xff, (byte) 0xfe, (byte) 0xfd, (byte) 0xfc},
  };

  @Test
  void decodingNotesExactlyWhenADecodedByteIsOutsideAscii() {
    Random random = new Random(20261126L);
    for (int len = 0; len <= 48; len++) {
      for (int r = 0; r < 300; r++) {
        byte[] data = new byte[len];
        for (int k = 0; k < len; k++) {
          data[k] = (byte) random.nextInt(0x80); // ASCII ...
        }
        if (len > 0 && r % 2 == 1) {
          data[random.nextInt(len)] |= (byte) 0x80; // ... or one byte that is not, at any place
        }
        boolean nonAscii = r % 2 == 1 && len > 0;
        byte[] in = Base64.getUrlEncoder().withoutPadding().encode(data);
        byte[] out = new byte[len];
        int got = Base64Url.decodeNoting(in, 0, in.length, out, 0);
        assertEquals(len | (nonAscii ? Base64Url.NON_ASCII : 0), got, "length " + len);
        assertArrayEquals(data, out);
        assertEquals(len, Base64Url.decode(in, 0, in.length, out, 0));
      }
    }
    assertEquals(-1, Base64Url.decodeNoting("gA=".getBytes(StandardCharsets.US_ASCII), 0, 3, new byte[2], 0));
  }

  @Test
  void canonicalTextDecodesWithOrWithoutPaddingWhenPaddingIsOptional() {
    for (byte[] b : SAMPLES) {
      String bare = Base64.getUrlEncoder().withoutPadding().encodeToString(b);
      String padded = Base64.getUrlEncoder().encodeToString(b);
      assertArrayEquals(b, Base64Url.decode(bare));
      assertArrayEquals(b, Base64Url.decodeOptionallyPadded(bare));
      assertArrayEquals(b, Base64Url.decodeOptionallyPadded(padded));
    }
  }

  @Test
  void strictDecodeRefusesPaddingAndBothRefuseStrayBitsWrongPaddingAndForeignCharacters() {
    assertNull(Base64Url.decode("AQ=="), "padding is not canonical in a token");
    for (String bad : new String[] {"AR", "AR==", "AQ=", "AQ===", "AQI==", "A=Q=", "AQ I", "AQ+/", "AQ\n", "A"}) {
      assertNull(Base64Url.decodeOptionallyPadded(bad), bad);
      assertNull(Base64Url.decode(bad), bad);
    }
  }

  /** The JDK's decoder, made strict: no padding, and only the one canonical text of the bytes. */
  private static byte[] reference(byte[] text) {
    try {
      byte[] b = Base64.getUrlDecoder().decode(text);
      byte[] again = Base64.getUrlEncoder().withoutPadding().encode(b);
      return Arrays.equals(again, text) ? b : null;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static byte[] ours(byte[] text, int at) {
    byte[] in = new byte[at + text.length + 3]; // the text inside a larger array, as in a token
    System.arraycopy(text, 0, in, at, text.length);
    byte[] out = new byte[text.length + 2];
    int n = Base64Url.decode(in, at, at + text.length, out, 1);
    return n < 0 ? null : Arrays.copyOfRange(out, 1, 1 + n);
  }

  @Test
  void everyLengthAndEveryByteAtEveryPlaceDecodesExactlyAsTheStrictReferenceDoes() {
    Random r = new Random(11);
    for (int len = 0; len <= 70; len++) {
      byte[] raw = new byte[len];
      r.nextBytes(raw);
      byte[] text = Base64.getUrlEncoder().withoutPadding().encode(raw);
      assertArrayEquals(raw, ours(text, len % 5), len + " bytes");
      for (int pos = 0; pos < text.length; pos++) {
        for (int c = 0; c < 256; c++) {
          byte[] t = text.clone();
          t[pos] = (byte) c;
          byte[] want = reference(t);
          byte[] got = ours(t, pos % 3);
          assertArrayEquals(want, got, () -> new String(t, StandardCharsets.ISO_8859_1));
        }
      }
    }
  }

  @Test
  void longRandomTextsAndTextsWithOneBadCharacterAgreeWithTheReference() {
    Random r = new Random(12);
    for (int round = 0; round < 2000; round++) {
      byte[] raw = new byte[r.nextInt(2000)];
      r.nextBytes(raw);
      byte[] text = Base64.getUrlEncoder().withoutPadding().encode(raw);
      assertArrayEquals(raw, ours(text, round % 7));
      if (text.length > 0) {
        text[r.nextInt(text.length)] = (byte) "=+/ .\n\u00e9\u0000".charAt(r.nextInt(8));
        assertEquals(null, ours(text, 0), "one bad character anywhere is refused");
      }
    }
  }
}
