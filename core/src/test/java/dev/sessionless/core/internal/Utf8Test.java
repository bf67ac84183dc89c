package dev.sessionless.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link Utf8#isValid} against the JDK's strict UTF-8 decoder, at every offset and length. */
class Utf8Test {
  static boolean jdkSaysValid(byte[] b, int off, int len) {
    try {
      StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b, off, len));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }

  /** Mostly ASCII runs (the eight-byte path), with multi-byte characters and stray bytes among them. */
  static byte[] sample(Random r, int size) {
    byte[] out = new byte[size];
    int i = 0;
    while (i < size) {
      int kind = r.nextInt(10);
      byte[] piece;
      if (kind < 6) {
        piece = new byte[1 + r.nextInt(12)];
        for (int k = 0; k < piece.length; k++) {
          piece[k] = (byte) (0x20 + r.nextInt(0x5F));
        }
      } else if (kind < 9) {
        String[] chars = {"é", "€", "𝄞", "ß", "中"};
        piece = chars[r.nextInt(chars.length)].getBytes(StandardCharsets.UTF_8);
      } else {
        piece = new byte[] {(byte) (0x80 + r.nextInt(0x80))}; // a stray byte: usually invalid
      }
      int n = Math.min(piece.length, size - i);
      System.arraycopy(piece, 0, out, i, n);
      i += n;
    }
    return out;
  }

  @Test
  void agreesWithTheJdkDecoderOnMixedInputAtEveryOffsetAndLength() {
    Random r = new Random(11);
    int valid = 0;
    int invalid = 0;
    for (int round = 0; round < 400; round++) {
      byte[] b = sample(r, 1 + r.nextInt(48));
      for (int off = 0; off < b.length; off++) {
        for (int len = 0; off + len <= b.length; len++) {
          boolean expected = jdkSaysValid(b, off, len);
          assertEquals(expected, Utf8.isValid(b, off, len), "round " + round + ", [" + off + ", " + (off + len) + ")");
          if (expected) {
            valid++;
          } else {
            invalid++;
          }
        }
      }
    }
    assertEquals(true, valid > 10_000 && invalid > 10_000, valid + " valid, " + invalid + " invalid");
  }

  @Test
  void aNonAsciiByteAnywhereInAnEightByteWordIsSeen() {
    for (int at = 0; at < 24; at++) {
      byte[] b = "abcdefghijklmnopqrstuvwx".getBytes(StandardCharsets.US_ASCII);
      b[at] = (byte) 0xC0; // an overlong lead: never valid
      assertEquals(false, Utf8.isValid(b, 0, b.length), "at " + at);
      b[at] = (byte) 0x80; // a lone continuation byte
      assertEquals(false, Utf8.isValid(b, 0, b.length), "at " + at);
    }
  }
}
