package dev.sessionless.core.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import java.util.zip.Inflater;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Keeps docs/SLD1.md true: its dictionary is the code's, and its worked example inflates, with
 * nothing but the JDK's raw inflater and the dictionary the page prints, to the payload it shows.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class Sld1SpecTest {
  private static final Path SPEC = Path.of("../docs/SLD1.md");

  @Test
  void specDictionaryIsTheCodesDictionaryWithTheHashItStates() throws Exception {
    String spec = Files.readString(SPEC);
    byte[] dictionary = Base64.getDecoder().decode(block(spec, "dictionary-base64"));
    assertArrayEquals(Deflate.dictionary(), dictionary, "docs/SLD1.md prints another dictionary than Deflate's");
    assertEquals(block(spec, "dictionary-sha256"),
        HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(dictionary)));
    assertTrue(spec.contains("\n" + new String(dictionary, StandardCharsets.US_ASCII) + "\n"),
        "the dictionary as text on the page differs from its base64");
  }

  @Test
  void specExampleInflatesWithOnlyTheSpecsDictionaryToItsPayload() throws Exception {
    String spec = Files.readString(SPEC);
    byte[] dictionary = Base64.getDecoder().decode(block(spec, "dictionary-base64"));
    byte[] compressed = Base64.getUrlDecoder().decode(block(spec, "example-compressed"));
    byte[] payload = block(spec, "example-payload").getBytes(StandardCharsets.UTF_8);
    Inflater inflater = new Inflater(true);
    try {
      inflater.setDictionary(dictionary);
      inflater.setInput(compressed);
      byte[] out = new byte[4 * payload.length];
      int n = inflater.inflate(out);
      assertTrue(inflater.finished(), "the example stream does not end");
      assertEquals(0, inflater.getRemaining(), "bytes after the example's final block");
      assertEquals(new String(payload, StandardCharsets.UTF_8), new String(out, 0, n, StandardCharsets.UTF_8));
    } finally {
      inflater.end();
    }
    if (FastPaths.on(FastPaths.Path.DEFLATE)) {
      // Sessionless's own encoder still writes these very bytes for this payload.
      Scratch s = Scratch.take();
      try {
        int n = Deflate.deflate(payload, payload.length, true, s);
        assertArrayEquals(compressed, Arrays.copyOf(s.inflated(), n));
      } finally {
        s.release();
      }
    }
  }

  /** The one-line fenced block after the marker {@code <!-- sld1:name -->}. */
  private static String block(String spec, String name) throws IOException {
    String marker = "<!-- sld1:" + name + " -->\n```\n";
    int at = spec.indexOf(marker);
    if (at < 0) {
      throw new IOException("docs/SLD1.md has no block " + name);
    }
    int start = at + marker.length();
    return spec.substring(start, spec.indexOf("\n```", start)).strip();
  }
}
