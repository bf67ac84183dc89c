package dev.sessionless.core.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DeflateTest {
  static byte[] json(int size) {
    StringBuilder b = new StringBuilder("{");
    for (int i = 0; b.length() < size - 30; i++) {
      b.append("\"item").append(i).append("\":\"value-").append(i % 7).append("\",");
    }
    b.setLength(b.length() - 1);
    return b.append('}').toString().getBytes(StandardCharsets.UTF_8);
  }

  static byte[] inflate(byte[] deflated, int cap) {
    Scratch s = Scratch.take();
    try {
      int n = Deflate.inflate(deflated, deflated.length, s, cap);
      return n < 0 ? null : Arrays.copyOf(s.inflated(), n);
    } finally {
      s.release();
    }
  }

  @Test
  void smallAndLargePayloadsRoundTripThroughAGrowingBuffer() {
    for (int size : new int[] {64, 1000, 5000, 40_000}) {
      byte[] plain = json(size);
      byte[] deflated = Deflate.deflate(plain, plain.length);
      assertArrayEquals(plain, inflate(deflated, 64 * 1024), "size " + size);
    }
  }

  @Test
  void aSmallTokenInflatesIntoASmallBufferNotTheCap() {
    byte[] plain = json(300);
    byte[] deflated = Deflate.deflate(plain, plain.length);
    Scratch s = Scratch.take();
    try {
      int before = s.inflated().length; // a pooled scratch may hold a buffer grown earlier
      assertEquals(plain.length, Deflate.inflate(deflated, deflated.length, s, 32 * 1024));
      assertTrue(s.inflated().length <= Math.max(before, Math.max(1024, 4 * deflated.length)),
          "a 300-byte payload took a " + s.inflated().length + "-byte buffer (the cap is 32 KiB)");
    } finally {
      s.release();
    }
  }

  @Test
  void dataThatInflatesPastTheCapIsRefusedAtTheCapExactly() {
    byte[] bomb = new byte[100_000];
    byte[] deflated = Deflate.deflate(bomb, bomb.length);
    Scratch s = Scratch.take();
    try {
      assertEquals(-2, Deflate.inflate(deflated, deflated.length, s, 32 * 1024));
      assertTrue(s.inflated().length <= 32 * 1024, "the buffer never grows past the cap");
      byte[] exact = new byte[32 * 1024];
      byte[] fits = Deflate.deflate(exact, exact.length);
      assertEquals(exact.length, Deflate.inflate(fits, fits.length, s, 32 * 1024),
          "data inflating to exactly the cap is accepted");
    } finally {
      s.release();
    }
  }

  @Test
  void aPooledInflaterServesTheNextTokenCleanlyAfterABadOrTruncatedOne() {
    byte[] plain = json(2000);
    byte[] deflated = Deflate.deflate(plain, plain.length);
    byte[] garbage = new byte[200];
    new Random(7).nextBytes(garbage);
    byte[] truncated = Arrays.copyOf(deflated, deflated.length / 2);
    for (int round = 0; round < 3 * Deflate.POOLED; round++) {
      assertEquals(null, inflate(garbage, 64 * 1024));
      assertEquals(null, inflate(truncated, 64 * 1024));
      assertArrayEquals(plain, inflate(deflated, 64 * 1024), "round " + round);
    }
  }

  @Test
  void trailingBytesAfterTheStreamAreRefused() {
    byte[] plain = json(500);
    byte[] deflated = Deflate.deflate(plain, plain.length);
    byte[] padded = Arrays.copyOf(deflated, deflated.length + 3);
    assertEquals(null, inflate(padded, 64 * 1024));
  }
}
