package dev.sessionless.core.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import org.junit.jupiter.api.Test;

/** Every stream is read back by the JDK's own zlib {@code Inflater}, not by our code. */
class FixedHuffmanTest {
  static byte[] zlibInflate(byte[] deflated) throws DataFormatException {
    Inflater inf = new Inflater(true);
    try {
      inf.setInput(deflated);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buf = new byte[256];
      while (!inf.finished()) {
        int n = inf.inflate(buf);
        if (n == 0 && !inf.finished() && (inf.needsInput() || inf.needsDictionary())) {
          throw new DataFormatException("truncated");
        }
        out.write(buf, 0, n);
      }
      assertEquals(0, inf.getRemaining(), "no bytes after the final block");
      return out.toByteArray();
    } finally {
      inf.end();
    }
  }

  static byte[] encode(byte[] in) {
    byte[] out = new byte[FixedHuffman.maxEncodedLength(in.length)];
    return Arrays.copyOf(out, FixedHuffman.encode(in, in.length, null, out));
  }

  static byte[] zlibInflate(byte[] deflated, byte[] dictionary) throws DataFormatException {
    Inflater inf = new Inflater(true);
    try {
      inf.setDictionary(dictionary);
      inf.setInput(deflated);
      byte[] out = new byte[4 * FixedHuffman.MAX_INPUT];
      int n = inf.inflate(out);
      assertTrue(inf.finished(), "one complete stream");
      assertEquals(0, inf.getRemaining(), "no bytes after the final block");
      return Arrays.copyOf(out, n);
    } finally {
      inf.end();
    }
  }

  static byte[] encode(byte[] in, FixedHuffman.Preset preset) {
    byte[] out = new byte[FixedHuffman.maxEncodedLength(in.length)];
    return Arrays.copyOf(out, FixedHuffman.encode(in, in.length, preset, out));
  }

  static int zlibSize(byte[] in) {
    Deflater d = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
    try {
      d.setInput(in);
      d.finish();
      byte[] out = new byte[in.length * 2 + 64];
      return d.deflate(out);
    } finally {
      d.end();
    }
  }

  static void assertRoundTrips(byte[] in, String what) throws DataFormatException {
    byte[] z = encode(in);
    assertEquals(1, (z[0] >> 1) & 3, what + ": one block of fixed codes (BTYPE 01)");
    assertEquals(1, z[0] & 1, what + ": the block is final");
    assertArrayEquals(in, zlibInflate(z), what);
  }

  static byte[] session(Random r, int size) {
    StringBuilder b = new StringBuilder("{\"iss\":\"https://shop.example\",\"aud\":\"shop\",\"iat\":")
        .append(1_700_000_000 + r.nextInt(100_000_000)).append(",\"st\":{\"cart\":[");
    while (b.length() < size - 20) {
      b.append("{\"sku\":\"SKU-").append(1000 + r.nextInt(9000)).append("\",\"qty\":")
          .append(1 + r.nextInt(9)).append("},");
    }
    b.setLength(b.length() - 1);
    return b.append("]}}").toString().getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void theEmptyInputIsAFinalFixedBlockHoldingOnlyTheEndCode() throws Exception {
    byte[] z = encode(new byte[0]);
    assertArrayEquals(new byte[] {0x03, 0x00}, z);
    assertEquals(0, zlibInflate(z).length);
  }

  @Test
  void everyLengthUpToTheLimitRoundTripsForRandomRepetitiveAndSessionLikeBytes() throws Exception {
    Random r = new Random(42);
    for (int len = 1; len <= FixedHuffman.MAX_INPUT; len++) {
      byte[] random = new byte[len];
      r.nextBytes(random);
      assertRoundTrips(random, "random, " + len + " bytes");
      byte[] runs = new byte[len];
      for (int i = 0; i < len; i++) {
        runs[i] = (byte) ("ab".charAt(i / (1 + r.nextInt(7)) % 2));
      }
      assertRoundTrips(runs, "runs, " + len + " bytes");
      byte[] alphabet = new byte[len];
      for (int i = 0; i < len; i++) {
        alphabet[i] = (byte) ("{}\":,abc".charAt(r.nextInt(8)));
      }
      assertRoundTrips(alphabet, "small alphabet, " + len + " bytes");
    }
  }

  @Test
  void matchesOfEveryLengthAndDistanceUpToTheLimitRoundTrip() throws Exception {
    // One distinct literal prefix of `dist` bytes, then the same bytes again for `length` bytes:
    // the only possible match has exactly that distance, and runs exactly that long.
    Random r = new Random(3);
    for (int dist = 1; dist < FixedHuffman.MAX_INPUT; dist += 1 + dist / 16) {
      for (int length = 3; dist + length <= FixedHuffman.MAX_INPUT; length += 1 + length / 8) {
        byte[] in = new byte[dist + length];
        for (int i = 0; i < dist; i++) {
          in[i] = (byte) r.nextInt(256);
        }
        for (int i = dist; i < in.length; i++) {
          in[i] = in[i - dist];
        }
        assertRoundTrips(in, "distance " + dist + ", length " + length);
      }
    }
    byte[] zeros = new byte[FixedHuffman.MAX_INPUT];
    assertRoundTrips(zeros, "a run longer than one 258-byte match");
    assertTrue(encode(zeros).length < 10, "512 zeros take two matches: " + encode(zeros).length);
  }

  @Test
  void sessionPayloadsCompressAndCostAtMostAnEighthMoreThanZlibsDynamicBlock() throws Exception {
    Random r = new Random(9);
    for (int size = 120; size <= FixedHuffman.MAX_INPUT; size += 7) {
      byte[] in = session(r, size);
      assertRoundTrips(in, "session of " + in.length + " bytes");
      int ours = encode(in).length;
      int zlib = zlibSize(in);
      assertTrue(ours < in.length, "compresses: " + ours + " of " + in.length);
      assertTrue(ours <= zlib * 1.125,
          in.length + " bytes: " + ours + " against zlib's " + zlib + " (limit +12.5%)");
    }
  }

  @Test
  void incompressibleInputStaysWithinTheBoundOfNineBitsAByte() {
    Random r = new Random(5);
    byte[] in = new byte[FixedHuffman.MAX_INPUT];
    r.nextBytes(in);
    int n = encode(in).length;
    assertTrue(n <= FixedHuffman.maxEncodedLength(in.length), n + " bytes");
    assertTrue(n > in.length, "random bytes do not compress: " + n);
  }

  @Test
  void inputOverTheLimitIsRefusedAndDeflateSendsItToZlib() throws Exception {
    byte[] big = session(new Random(1), 2000);
    assertThrows(IllegalArgumentException.class,
        () -> FixedHuffman.encode(big, big.length, null, new byte[4096]));
    byte[] viaDeflate = Deflated.of(big, big.length);
    assertEquals(2, (viaDeflate[0] >> 1) & 3, "zlib's dynamic block for a large payload");
    assertArrayEquals(big, zlibInflate(viaDeflate));
    byte[] small = session(new Random(1), 300);
    byte[] smallViaDeflate = Deflated.of(small, small.length);
    assertEquals(1, (smallViaDeflate[0] >> 1) & 3, "the fixed-code block for a small payload");
    assertArrayEquals(small, zlibInflate(smallViaDeflate));
  }

  @Test
  void pooledTablesLeftByALongerInputEncodeTheNextInputExactlyAsFreshTablesDo() throws Exception {
    Random r = new Random(21);
    for (int round = 0; round < 3000; round++) {
      int len = round % 2 == 0 ? FixedHuffman.MAX_INPUT - r.nextInt(20) : r.nextInt(120);
      byte[] in = session(r, Math.max(120, len));
      in = Arrays.copyOf(in, Math.min(in.length, len));
      byte[] out = new byte[FixedHuffman.maxEncodedLength(in.length)];
      byte[] pooled = Arrays.copyOf(out, FixedHuffman.encodePooled(in, in.length, null, out));
      assertArrayEquals(encode(in), pooled, "round " + round + ", " + in.length + " bytes");
      assertArrayEquals(in, zlibInflate(pooled));
    }
  }

  @Test
  void withAPresetDictionaryEveryStreamIsReadByZlibGivenTheSameDictionary() throws Exception {
    Random r = new Random(77);
    byte[] dictionary = Deflate.dictionary();
    FixedHuffman.Preset preset = new FixedHuffman.Preset(dictionary);
    for (int len = 0; len <= FixedHuffman.MAX_INPUT; len += 1 + len / 32) {
      byte[] session = Arrays.copyOf(session(r, Math.max(120, len)), len);
      byte[] z = encode(session, preset);
      assertEquals(1, (z[0] >> 1) & 3, "one fixed-code block");
      assertArrayEquals(session, zlibInflate(z, dictionary), len + " bytes");
      byte[] random = new byte[len];
      r.nextBytes(random);
      assertArrayEquals(random, zlibInflate(encode(random, preset), dictionary), len + " random bytes");
    }
  }

  @Test
  void matchesReachBackIntoTheDictionaryAndAcrossItsEnd() throws Exception {
    Random r = new Random(8);
    byte[] dictionary = new byte[FixedHuffman.MAX_PRESET];
    r.nextBytes(dictionary);
    FixedHuffman.Preset preset = new FixedHuffman.Preset(dictionary);
    // The input repeats the dictionary from every offset: the only matches start inside it, the
    // farthest a whole window back, and the ones from its last two bytes run on into the input.
    for (int from = 0; from < dictionary.length; from += 1 + from / 16) {
      byte[] in = Arrays.copyOf(Arrays.copyOfRange(dictionary, from, dictionary.length), FixedHuffman.MAX_INPUT);
      for (int i = dictionary.length - from; i < in.length; i++) {
        in[i] = in[i - (dictionary.length - from)];
      }
      byte[] z = encode(in, preset);
      assertArrayEquals(in, zlibInflate(z, dictionary), "from offset " + from);
      assertTrue(z.length < 16, "offset " + from + ": a few matches, " + z.length + " bytes");
    }
    assertTrue(encode(dictionary, preset).length < 8, "the dictionary itself is one match");
  }

  @Test
  void theDictionaryShortensSessionsAsMuchAsZlibsOwnFixedBlockWould() throws Exception {
    // Python's zlib (level 9, Z_FIXED, zdict = the SLD1 dictionary) writes this cart's payload in
    // 275 bytes, and 258 as a dynamic block; without the dictionary, 335.
    byte[] cart = ("{\"iss\":\"https://shop.example\",\"aud\":\"shop\",\"iat\":1795731050,\"exp\":1795732850,"
        + "\"jti\":\"2t_u25LTwS5afGN1sbsLvw\",\"st\":{\"cart\":{\"locale\":\"en-GB\",\"currency\":\"GBP\","
        + "\"items\":[{\"sku\":\"SKU-1001\",\"name\":\"Espresso beans 1kg\",\"quantity\":1,\"priceCents\":2490},"
        + "{\"sku\":\"SKU-2002\",\"name\":\"Ceramic cup, white\",\"quantity\":2,\"priceCents\":1290},"
        + "{\"sku\":\"SKU-3003\",\"name\":\"Milk jug 350ml\",\"quantity\":1,\"priceCents\":1990}],"
        + "\"promotion\":\"WINTER-0\"},\"$sessionless\":{\"c\":1795731050175,\"m\":1800,\"t\":{\"cart\":\"Cart\"}}}}")
        .getBytes(StandardCharsets.US_ASCII);
    byte[] z = encode(cart, new FixedHuffman.Preset(Deflate.dictionary()));
    assertArrayEquals(cart, zlibInflate(z, Deflate.dictionary()));
    assertTrue(z.length <= 275, z.length + " bytes");
    assertEquals(335, encode(cart).length, "without the dictionary");
  }

  @Test
  void aPresetOverTheLimitIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new FixedHuffman.Preset(new byte[FixedHuffman.MAX_PRESET + 1]));
  }
}
