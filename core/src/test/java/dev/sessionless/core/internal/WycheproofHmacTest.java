package dev.sessionless.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * Wycheproof's HMAC-SHA-256/384/512 vectors through {@link HmacEngine} (the JCA {@code Mac}).
 *
 * <p>Each vector is verified twice on the same engine, so that a pooled state is reused, and the
 * engine's own MAC is compared with the vector's tag.
 *
 * <p><b>Treated otherwise, by rule:</b> the groups with a truncated tag (half the hash length).
 * JWS HMAC (RFC 7518 section 3.2) uses the whole MAC, and the engine refuses any other length
 * before computing, so a truncated tag is never accepted, valid or not; for those vectors the
 * test checks instead that the engine's full MAC begins with the tag exactly when Wycheproof says
 * the tag is valid. Keys shorter than the algorithm's JOSE minimum (16 bytes for HS256, say) are
 * run here at the engine level; {@code TokenKey} refuses them before any engine is made.
 */
@Timeout(120)
class WycheproofHmacTest {
  static Stream<Arguments> files() {
    return Stream.of(
        Arguments.of("hmac_sha256_test.json", "HmacSHA256", 32),
        Arguments.of("hmac_sha384_test.json", "HmacSHA384", 48),
        Arguments.of("hmac_sha512_test.json", "HmacSHA512", 64));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("files")
  void everyFullLengthVectorHoldsAndNoTruncatedTagIsAccepted(String file, String jcaName, int macBytes) {
    JsonNode root = WycheproofFiles.load(file);
    WycheproofFiles.Tally full = new WycheproofFiles.Tally(file, Map.of());
    int truncated = 0;
    for (JsonNode group : root.get("testGroups")) {
      int tagBytes = group.get("tagSize").asInt() / 8;
      for (JsonNode t : group.get("tests")) {
        int id = t.get("tcId").asInt();
        byte[] key = WycheproofFiles.hex(t.get("key").stringValue());
        byte[] msg = WycheproofFiles.hex(t.get("msg").stringValue());
        byte[] tag = WycheproofFiles.hex(t.get("tag").stringValue());
        boolean valid = "valid".equals(t.get("result").stringValue());
        HmacEngine e = new HmacEngine(jcaName, key);
        byte[] mac = new byte[64];
        assertEquals(macBytes, e.sign(msg, msg.length, mac), file + " #" + id);
        boolean prefix = Arrays.equals(mac, 0, tagBytes, tag, 0, tagBytes);
        boolean first = e.verify(msg, msg.length, tag, tag.length);
        boolean again = e.verify(msg, msg.length, tag, tag.length);
        assertEquals(first, again, file + " #" + id + ": a reused pooled state changed the answer");
        if (tagBytes == macBytes) {
          assertEquals(valid, prefix, file + " #" + id + ": the engine's MAC against the vector's tag");
          full.record(id, valid, first, t.get("comment").stringValue());
        } else {
          truncated++;
          assertFalse(first, file + " #" + id + ": a truncated tag must never verify");
          assertEquals(valid, prefix, file + " #" + id + ": the full MAC starts with a valid truncated tag");
        }
      }
    }
    assertTrue(full.problems().isEmpty(), String.join("\n", full.problems()));
    assertEquals(87, full.held(), "full-length vectors checked");
    assertEquals(87, truncated, "truncated-tag vectors checked by prefix");
    assertEquals(root.get("numberOfTests").asInt(), full.held() + truncated, "every vector of the file ran");
  }
}
