package dev.sessionless.core.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sessionless.testing.FuzzSeeds;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Coverage-guided fuzzing (Jazzer) of the hand-written DEFLATE encoder ({@link FixedHuffman},
 * behind {@link Deflate#deflate}): every stream it writes, with or without the {@code SLD1}
 * dictionary, is read back by the JDK's own zlib {@link Inflater} to exactly the input. And the
 * capped inflater ({@link Deflate#inflate}) given any bytes answers a length, -1 or -2, and a
 * length only where zlib reads the same bytes to the same content.
 *
 * <p>Saved inputs live under {@code
 * src/test/resources/dev/sessionless/core/internal/DeflateFuzzTestInputs/<method>/}.
 */
@Timeout(120)
class DeflateFuzzTest {
  static final byte[] DICTIONARY = Deflate.dictionary();
  static final FixedHuffman.Preset PRESET = new FixedHuffman.Preset(DICTIONARY);

  /**
   * Byte 0, bit 0: with the {@code SLD1} dictionary; the rest is the data. Encoded by {@link
   * FixedHuffman} directly (up to its input limit) and through {@link Deflate#deflate} (which
   * takes zlib above it), each read back by zlib and by {@link Deflate#inflate}.
   */
  @FuzzTest(maxDuration = "5m")
  void everyEncodedStreamInflatesToItsInput(byte[] input) throws DataFormatException {
    if (input.length == 0) {
      return;
    }
    boolean dictionary = (input[0] & 1) != 0;
    byte[] data = Arrays.copyOfRange(input, 1, input.length);
    byte[] dict = dictionary ? DICTIONARY : null;
    if (data.length <= FixedHuffman.MAX_INPUT) {
      byte[] out = new byte[FixedHuffman.maxEncodedLength(data.length)];
      int n = FixedHuffman.encode(data, data.length, dictionary ? PRESET : null, out);
      assertTrue(n <= out.length, "the encoder wrote past its own bound");
      assertArrayEquals(data, zlibInflate(Arrays.copyOf(out, n), dict, data.length + 1),
          "zlib reads the fixed-code stream back to the input");
    }
    Scratch s = Scratch.take();
    try {
      int n = Deflate.deflate(data, data.length, dictionary, s);
      byte[] deflated = Arrays.copyOf(s.inflated(), n);
      assertArrayEquals(data, zlibInflate(deflated, dict, data.length + 1), "zlib reads Deflate.deflate's stream back");
      int m = Deflate.inflate(deflated, deflated.length, s, Math.max(1, data.length), dictionary);
      if (data.length == 0) {
        assertTrue(m == 0, "an empty input inflates to nothing, got " + m);
      } else {
        assertEquals(data.length, m, "our inflater reads Deflate.deflate's stream back");
        assertArrayEquals(data, Arrays.copyOf(s.inflated(), m));
      }
    } finally {
      s.release();
    }
  }

  /**
   * Byte 0: bit 0 the dictionary; bits 1-7 the cap in 64-byte steps (at least 1 byte). The rest
   * is given to {@link Deflate#inflate} as a raw DEFLATE stream.
   */
  @FuzzTest(maxDuration = "5m")
  void anyBytesInflateToWhatZlibReadsOrAreRefused(byte[] input) {
    if (input.length == 0) {
      return;
    }
    boolean dictionary = (input[0] & 1) != 0;
    int cap = Math.max(1, ((input[0] & 0xff) >>> 1) * 64);
    byte[] data = Arrays.copyOfRange(input, 1, input.length);
    Scratch s = Scratch.take();
    try {
      int n = Deflate.inflate(data, data.length, s, cap, dictionary);
      if (n == -1 || n == -2) {
        return;
      }
      assertTrue(n >= 0 && n <= cap, "inflate answered " + n + " with a cap of " + cap);
      byte[] ours = Arrays.copyOf(s.inflated(), n);
      byte[] zlib;
      try {
        zlib = zlibInflate(data, dictionary ? DICTIONARY : null, cap);
      } catch (DataFormatException e) {
        fail("Deflate.inflate read " + n + " bytes from a stream zlib refuses: " + e.getMessage());
        return;
      }
      assertArrayEquals(zlib, ours, "Deflate.inflate and zlib read the same stream differently");
    } finally {
      s.release();
    }
  }

  /**
   * The JDK's zlib reading one complete raw DEFLATE stream with nothing after it, of at most
   * {@code limit} bytes.
   */
  static byte[] zlibInflate(byte[] deflated, byte[] dictionary, int limit) throws DataFormatException {
    Inflater inf = new Inflater(true);
    try {
      if (dictionary != null) {
        inf.setDictionary(dictionary);
      }
      inf.setInput(deflated);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buf = new byte[512];
      while (!inf.finished()) {
        int n = inf.inflate(buf);
        if (n == 0 && !inf.finished() && (inf.needsInput() || inf.needsDictionary())) {
          throw new DataFormatException("truncated");
        }
        out.write(buf, 0, n);
        if (out.size() > limit) {
          throw new DataFormatException("more than " + limit + " bytes");
        }
      }
      if (inf.getRemaining() != 0) {
        throw new DataFormatException("bytes after the final block");
      }
      return out.toByteArray();
    } finally {
      inf.end();
    }
  }

  /**
   * Found by {@link #everyEncodedStreamInflatesToItsInput} (saved as its {@code crash-5ba93c9d...}
   * input): zlib finishes an empty stream in a call that inflates nothing and wants no more
   * input, which {@link Deflate#inflate} took for a truncated stream.
   */
  @Test
  void theStreamOfAnEmptyInputInflatesToNothingNotToARefusal() {
    for (boolean dictionary : new boolean[] {false, true}) {
      byte[] out = new byte[FixedHuffman.maxEncodedLength(0)];
      int n = FixedHuffman.encode(new byte[0], 0, dictionary ? PRESET : null, out);
      Scratch s = Scratch.take();
      try {
        assertEquals(0, Deflate.inflate(out, n, s, 1024, dictionary), "dictionary " + dictionary);
      } finally {
        s.release();
      }
    }
  }

  static final FuzzSeeds INPUTS = FuzzSeeds.of(DeflateFuzzTest.class);

  @Test
  void theCheckedInSeedsAreThere() throws IOException {
    for (String method : List.of("everyEncodedStreamInflatesToItsInput", "anyBytesInflateToWhatZlibReadsOrAreRefused")) {
      try (var files = Files.list(INPUTS.dir(method))) {
        assertTrue(files.count() >= 4, method);
      }
    }
  }

  /**
   * Rewrites the checked-in seeds (session payloads and states from the differential tests, with
   * and without the dictionary, and their compressed forms); the command is in docs/FUZZING.md.
   */
  public static void main(String[] args) throws IOException {
    List<String> texts = List.of(FastClaimsDifferentialTest.TYPICAL, StateScannerDifferentialTest.SEEDS.get(0),
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "{\"iss\":\"https://\",\"aud\":\"\",\"sub\":\"\"}");
    Path encode = INPUTS.clean("everyEncodedStreamInflatesToItsInput");
    Path inflate = INPUTS.clean("anyBytesInflateToWhatZlibReadsOrAreRefused");
    int i = 0;
    for (String t : texts) {
      byte[] data = t.getBytes(StandardCharsets.UTF_8);
      for (int dict = 0; dict < 2; dict++) {
        FuzzSeeds.write(encode, i, FuzzSeeds.prefixed(dict, data));
        byte[] out = new byte[FixedHuffman.maxEncodedLength(data.length)];
        int n = FixedHuffman.encode(data, data.length, dict == 1 ? PRESET : null, out);
        FuzzSeeds.write(inflate, i, FuzzSeeds.prefixed(dict | (40 << 1), Arrays.copyOf(out, n)));
        i++;
      }
    }
  }
}
