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
      byte[] deflated = Deflated.of(plain, plain.length);
      assertArrayEquals(plain, inflate(deflated, 64 * 1024), "size " + size);
    }
  }

  @Test
  void aSmallTokenInflatesIntoASmallBufferNotTheCap() {
    byte[] plain = json(300);
    byte[] deflated = Deflated.of(plain, plain.length);
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
    byte[] deflated = Deflated.of(bomb, bomb.length);
    Scratch s = Scratch.take();
    try {
      assertEquals(-2, Deflate.inflate(deflated, deflated.length, s, 32 * 1024));
      assertTrue(s.inflated().length <= 32 * 1024, "the buffer never grows past the cap");
      byte[] exact = new byte[32 * 1024];
      byte[] fits = Deflated.of(exact, exact.length);
      assertEquals(exact.length, Deflate.inflate(fits, fits.length, s, 32 * 1024),
          "data inflating to exactly the cap is accepted");
    } finally {
      s.release();
    }
  }

  @Test
  void aPooledInflaterServesTheNextTokenCleanlyAfterABadOrTruncatedOne() {
    byte[] plain = json(2000);
    byte[] deflated = Deflated.of(plain, plain.length);
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
    byte[] deflated = Deflated.of(plain, plain.length);
    byte[] padded = Arrays.copyOf(deflated, deflated.length + 3);
    assertEquals(null, inflate(padded, 64 * 1024));
  }

  static byte[] inflateWithDictionary(byte[] deflated, int cap) {
    Scratch s = Scratch.take();
    try {
      int n = Deflate.inflate(deflated, deflated.length, s, cap, true);
      return n < 0 ? null : Arrays.copyOf(s.inflated(), n);
    } finally {
      s.release();
    }
  }

  @Test
  void theDictionaryNeverChanges() throws Exception {
    // A token written with zip SLD1 must inflate on every later version: the dictionary is fixed.
    byte[] d = Deflate.dictionary();
    byte[] sha = java.security.MessageDigest.getInstance("SHA-256").digest(d);
    assertEquals(190, d.length);
    assertEquals("a8e5d371", String.format("%02x%02x%02x%02x", sha[0], sha[1], sha[2], sha[3]),
        "the SLD1 dictionary changed: tokens already written with it would no longer inflate");
  }

  @Test
  void theDictionaryKindRoundTripsAndIsReadByPlainZlibWithTheSameDictionary() throws Exception {
    for (int size : new int[] {1, 64, 300, 1000, 5000, 40_000}) {
      byte[] plain = json(size);
      byte[] deflated = Deflated.withDictionary(plain, plain.length);
      assertArrayEquals(plain, inflateWithDictionary(deflated, 64 * 1024), "size " + size);
      // Any raw-DEFLATE reader given the same dictionary inflates it: plain java.util.zip here.
      java.util.zip.Inflater inf = new java.util.zip.Inflater(true);
      inf.setDictionary(Deflate.dictionary());
      inf.setInput(deflated);
      byte[] out = new byte[plain.length + 1];
      int n = inf.inflate(out);
      inf.end();
      assertArrayEquals(plain, Arrays.copyOf(out, n), "size " + size);
      if (size >= 64) {
        assertTrue(!Arrays.equals(plain, inflate(deflated, 64 * 1024)),
            "without the dictionary it does not inflate to the payload (size " + size + ")");
      }
    }
  }

  @Test
  void theDictionaryShortensATypicalSessionPayload() {
    byte[] payload = ("{\"iss\":\"https://app.example.com\",\"aud\":\"app\",\"sub\":\"alice\",\"iat\":1795724494,"
        + "\"exp\":1795726294,\"jti\":\"K3oOkM-qcMEA64FsFIXhwQ\",\"auth_time\":1795724000,\"st\":{\"csrf\":"
        + "\"Yx3-kLq9aPz0wVb1\",\"userId\":12345,\"roles\":[\"USER\",\"ADMIN\"],\"$sessionless\":{\"c\":"
        + "1795724494814,\"m\":1800,\"t\":{\"csrf\":\"s\",\"userId\":\"i\",\"roles\":\"L\"}}}}")
        .getBytes(StandardCharsets.US_ASCII);
    int plain = Deflated.of(payload, payload.length).length;
    int dictionary = Deflated.withDictionary(payload, payload.length).length;
    assertTrue(dictionary < plain * 0.85, "with the dictionary " + dictionary + " bytes, without " + plain);
  }

  @Test
  void aDictionaryBombStopsAtTheCapAndAPooledInflaterIsCleanAfterIt() {
    byte[] bomb = new byte[100_000];
    byte[] deflated = Deflated.withDictionary(bomb, bomb.length);
    Scratch s = Scratch.take();
    try {
      assertEquals(-2, Deflate.inflate(deflated, deflated.length, s, 32 * 1024, true));
    } finally {
      s.release();
    }
    byte[] plain = json(500);
    byte[] fixed = Deflated.of(plain, plain.length);
    for (int i = 0; i < 3 * Deflate.POOLED; i++) {
      // The pool's inflaters, reset after a dictionary use, inflate plain DEF without one.
      assertArrayEquals(plain, inflate(fixed, 64 * 1024));
      assertArrayEquals(plain, inflateWithDictionary(Deflated.withDictionary(plain, plain.length), 64 * 1024));
    }
  }
}
