package dev.sessionless.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.internal.RawJson;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The encoder writes the usual payload (plain names, every value JSON already) without a
 * generator: byte for byte what the generator writes, and anything else still goes to the
 * generator.
 */
class PayloadWriterTest {
  private static final StateMapper MAPPER = StateMapper.defaults();

  @Test
  void theDirectPayloadIsTheGeneratorsByteForByte() {
    Random r = new Random(41);
    int direct = 0;
    for (int round = 0; round < 3000; round++) {
      CompactWriter w = new CompactWriter(text(r, true), text(r, true), null, 64 * 1024, Compression.NONE, MAPPER);
      Claims.Builder b = Claims.builder();
      if (r.nextBoolean()) {
        b.subject(text(r, false));
      }
      if (r.nextInt(4) == 0) {
        b.notBefore(Instant.ofEpochSecond(r.nextInt(2_000_000_000)));
      }
      if (r.nextInt(3) == 0) {
        b.authTime(Instant.ofEpochSecond(1_700_000_000L + r.nextInt(1_000_000)));
      }
      for (int k = r.nextInt(5); k > 0; k--) {
        String name = text(r, false);
        if (name.isEmpty()) {
          continue;
        }
        byte[] json = MAPPER.write(r.nextBoolean() ? text(r, false) : (Object) r.nextLong());
        b.put(name, r.nextInt(5) == 0 ? (Object) r.nextInt(100)
            : r.nextBoolean() ? new RawJson(json, 0, json.length)
            : new RawJson(new String(json, StandardCharsets.UTF_8)));
      }
      b.timeToLive(Duration.ofMinutes(30));
      Claims c = b.build();
      String jti = r.nextInt(10) == 0 ? "id \"q\"" : CompactWriter.newSessionId();
      long now = 1_795_000_000L + r.nextInt(1000);
      byte[] generator = w.payload(c, now, now + 1800, jti, false);
      byte[] fast = w.payload(c, now, now + 1800, jti, true);
      assertArrayEquals(generator, fast, new String(generator, StandardCharsets.UTF_8));
      if (plain(c, jti)) {
        direct++;
      }
    }
    assertTrue(direct > 900, "payloads the direct path could write: " + direct + " of 3000");
  }

  private static boolean plain(Claims c, String jti) {
    boolean ok = ascii(jti) && c.subject().map(PayloadWriterTest::ascii).orElse(true);
    for (var e : c.state().entrySet()) {
      ok &= e.getValue() instanceof RawJson && ascii(e.getKey());
    }
    for (var e : c.claims().entrySet()) {
      ok &= e.getValue() instanceof RawJson || e.getKey().equals(SessionToken.AUTH_TIME);
    }
    return ok;
  }

  private static boolean ascii(String s) {
    return s.chars().allMatch(ch -> ch >= 0x20 && ch <= 0x7e && ch != '"' && ch != '\\');
  }

  /** Mostly printable ASCII; sometimes a quote, a backslash, a control character or a non-ASCII one. */
  private static String text(Random r, boolean url) {
    StringBuilder b = new StringBuilder(url ? "https://" : "");
    for (int i = 1 + r.nextInt(12); i > 0; i--) {
      int k = r.nextInt(100);
      b.append(k < 97 ? (char) (0x21 + r.nextInt(0x5e)) : k < 98 ? '"' : k < 99 ? '\\' : r.nextBoolean() ? 'é' : '\n');
    }
    return b.toString();
  }
}
