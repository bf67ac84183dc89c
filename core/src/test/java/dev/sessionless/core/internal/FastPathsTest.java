package dev.sessionless.core.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.TokenException;
import dev.sessionless.core.internal.FastPaths.Path;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.zip.Inflater;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The switches back to the plain paths ({@link FastPaths}): which properties turn which path
 * off, and the differential corpora of the fast paths run through the production entry points
 * with each fast path on and off, held to the same reference (Jackson, the JCA {@code Mac},
 * {@code Inflater}). With a path off, the fast code is seen not to run.
 *
 * <p>The modes are flipped in this JVM (the fields {@link FastPaths} reads its properties into),
 * not by a second test run with other properties: one run then compares the two modes input by
 * input, and only these tests run twice.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FastPathsTest {
  /** Runs {@code body} with {@code path} on or off, restoring it after. */
  static <T> T with(Path path, boolean on, Supplier<T> body) {
    boolean was = FastPaths.set(path, on);
    try {
      return body.get();
    } finally {
      FastPaths.set(path, was);
    }
  }

  @Test
  void eachPropertyTurnsItsPathOffAndTheGlobalOneTurnsAllOff() {
    assertEquals(EnumSet.noneOf(Path.class), FastPaths.off(k -> null));
    assertEquals(EnumSet.allOf(Path.class), FastPaths.off(k -> k.equals("dev.sessionless.fastpaths") ? "off" : null));
    for (Path p : Path.values()) {
      assertEquals(EnumSet.of(p), FastPaths.off(k -> k.equals(p.property()) ? " OFF " : null), p.property());
      assertEquals(EnumSet.noneOf(Path.class), FastPaths.off(k -> k.equals(p.property()) ? "on" : null));
    }
    assertEquals(EnumSet.noneOf(Path.class), FastPaths.off(k -> k.equals("dev.sessionless.hmac") ? "jca" : null),
        "the removed HMAC engine's old switch is ignored");
    assertEquals("dev.sessionless.fastpath.deflate", Path.DEFLATE.property());
  }

  // ---- claims: ClaimsReader.read against the Jackson reader ----

  static String claims(byte[] b, boolean[] indexedInPass) {
    ParsedClaims out = new ParsedClaims();
    try {
      ClaimsReader.read(b, b.length, FastClaimsDifferentialTest.EXPECTED, out);
    } catch (TokenException e) {
      return null;
    }
    indexedInPass[0] |= out.stateLayout != null;
    return FastClaimsDifferentialTest.describe(out);
  }

  @ParameterizedTest(name = "fast claims reader {0}")
  @ValueSource(booleans = {true, false})
  void claimsReadInEitherModeAsJacksonReadsThem(boolean fast) {
    boolean[] indexed = {false};
    List<byte[]> corpus = mutated(FastClaimsDifferentialTest.SEEDS, 20_000, 1);
    for (byte[] b : corpus) {
      ParsedClaims j = FastClaimsDifferentialTest.jackson(b);
      String expected = j == null ? null : FastClaimsDifferentialTest.describe(j);
      assertEquals(expected, with(Path.CLAIMS, fast, () -> claims(b, indexed)),
          () -> new String(b, StandardCharsets.UTF_8));
    }
    // Only the fast reader indexes the state in the same pass: seen to run, or not.
    assertEquals(fast, indexed[0]);
  }

  // ---- state: StateIndex.of against the Jackson index ----

  @ParameterizedTest(name = "state scanner {0}")
  @ValueSource(booleans = {true, false})
  void statesIndexInEitherModeAsJacksonIndexesThem(boolean fast) {
    int scanned = 0;
    for (byte[] b : mutated(StateScannerDifferentialTest.SEEDS, 10_000, 2)) {
      Map<String, String> j = StateScannerDifferentialTest.jackson(b);
      Map<String, String> got = with(Path.STATE, fast, () -> {
        try {
          return StateScannerDifferentialTest.reading(b, StateIndex.of(b));
        } catch (TokenException e) {
          return null;
        }
      });
      assertEquals(j, got, () -> new String(b, StandardCharsets.UTF_8));
      if (got != null && StateScanner.scan(b) != null) {
        scanned++;
      }
    }
    assertTrue(scanned > 100, "the corpus has states the scanner takes: " + scanned);
    byte[] typical = StateScannerDifferentialTest.SEEDS.get(0).getBytes(StandardCharsets.UTF_8);
    // The scanner's index holds offsets only; Jackson's holds a map: which one was built.
    assertEquals(fast, with(Path.STATE, fast, () -> StateIndex.of(typical)).spansFromScanner());
  }

  // ---- deflate: Deflate.deflate read back by Inflater ----

  @ParameterizedTest(name = "fixed-Huffman encoder {0}")
  @ValueSource(booleans = {true, false})
  void payloadsCompressedInEitherModeInflateBackExactly(boolean fast) throws Exception {
    Random random = new Random(7);
    byte[] fixedBlock = null;
    for (int size = 0; size <= FixedHuffman.MAX_INPUT + 100; size += 7) {
      for (boolean dictionary : new boolean[] {false, true}) {
        byte[] in = FixedHuffmanTest.session(random, size);
        byte[] out = with(Path.DEFLATE, fast, () -> deflate(in, dictionary));
        assertArrayEquals(in, zlibInflate(out, dictionary ? Deflate.dictionary() : null), size + " bytes");
        if (size == 301 && !dictionary) {
          fixedBlock = out;
        }
      }
    }
    // BTYPE 01 (fixed codes) is the fast encoder's; zlib chooses dynamic codes for session JSON.
    assertNotNull(fixedBlock);
    assertEquals(fast, (fixedBlock[0] & 0b110) == 0b010);
  }

  static byte[] deflate(byte[] in, boolean dictionary) {
    Scratch s = Scratch.take();
    try {
      int n = Deflate.deflate(in, in.length, dictionary, s);
      return Arrays.copyOf(s.inflated(), n);
    } finally {
      s.release();
    }
  }

  static byte[] zlibInflate(byte[] deflated, byte[] dictionary) throws Exception {
    Inflater inf = new Inflater(true);
    try {
      inf.setInput(deflated);
      if (dictionary != null) {
        inf.setDictionary(dictionary);
      }
      byte[] out = new byte[64 * 1024];
      int n = inf.inflate(out);
      assertTrue(inf.finished());
      return Arrays.copyOf(out, n);
    } finally {
      inf.end();
    }
  }

  /** The seeds, then up to {@code runs} copies of them with one to three random edits each, valid UTF-8. */
  static List<byte[]> mutated(List<String> seeds, int runs, long seed) {
    Random random = new Random(seed);
    byte[] alphabet = "{}[]\",:\\/-+.0123456789eEtrufalsnk u\u00e9\tx".getBytes(StandardCharsets.UTF_8);
    List<byte[]> out = new ArrayList<>();
    seeds.forEach(s -> out.add(s.getBytes(StandardCharsets.UTF_8)));
    for (int r = 0; r < runs; r++) {
      byte[] b = seeds.get(random.nextInt(seeds.size())).getBytes(StandardCharsets.UTF_8);
      for (int e = 1 + random.nextInt(3); e > 0 && b.length > 0; e--) {
        int at = random.nextInt(b.length);
        switch (random.nextInt(3)) {
          case 0:
            b[at] = alphabet[random.nextInt(alphabet.length)];
            break;
          case 1:
            b = concat(Arrays.copyOf(b, at), Arrays.copyOfRange(b, at + 1, b.length));
            break;
          default:
            b = concat(Arrays.copyOf(b, at), new byte[] {alphabet[random.nextInt(alphabet.length)]},
                Arrays.copyOfRange(b, at, b.length));
        }
      }
      if (Utf8.isValid(b, 0, b.length)) {
        out.add(b); // as the decoder hands over: it refuses invalid UTF-8 before reading
      }
    }
    return out;
  }

  static byte[] concat(byte[]... parts) {
    int n = 0;
    for (byte[] p : parts) {
      n += p.length;
    }
    byte[] out = new byte[n];
    int o = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, out, o, p.length);
      o += p.length;
    }
    return out;
  }

  @Test
  void nothingIsOffUnlessAPropertySaidSo() {
    for (Path p : Path.values()) {
      assertTrue(FastPaths.on(p) || System.getProperty(p.property()) != null
          || System.getProperty(FastPaths.ALL_PROPERTY) != null, p.name());
    }
    assertFalse(FastPaths.off(k -> null).contains(Path.RECORDS));
    assertNull(System.getProperty("dev.sessionless.fastpaths.unused"));
  }
}
