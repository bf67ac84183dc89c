package dev.sessionless.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * Wycheproof's Ed25519 vectors through {@link Ed25519Engine}: the public key read as a JWK's
 * {@code x} would give it (a key the engine refuses counts as every signature under it refused),
 * then every signature verified over its message. The file has no private keys; signing is held
 * to RFC 8037's worked example in {@code RfcExamplesTest}.
 */
@Timeout(120)
class WycheproofEd25519Test {
  private static final String FILE = "ed25519_test.json";

  @Test
  void everyEd25519VectorHolds() {
    JsonNode root = WycheproofFiles.load(FILE);
    WycheproofFiles.Tally tally = new WycheproofFiles.Tally(FILE, Map.of());
    for (JsonNode group : root.get("testGroups")) {
      assertEquals("edwards25519", group.get("publicKey").get("curve").stringValue());
      byte[] pk = WycheproofFiles.hex(group.get("publicKey").get("pk").stringValue());
      Ed25519Engine engine;
      try {
        engine = Ed25519Engine.of(pk, null);
      } catch (IllegalArgumentException refused) {
        engine = null;
      }
      for (JsonNode t : group.get("tests")) {
        byte[] msg = WycheproofFiles.hex(t.get("msg").stringValue());
        byte[] sig = WycheproofFiles.hex(t.get("sig").stringValue());
        boolean accepted = engine != null && engine.verify(msg, msg.length, sig, sig.length);
        tally.record(t.get("tcId").asInt(), "valid".equals(t.get("result").stringValue()), accepted,
            t.get("comment").stringValue());
      }
    }
    assertTrue(tally.problems().isEmpty(), String.join("\n", tally.problems()));
    assertEquals(root.get("numberOfTests").asInt(), tally.held(), "every vector of the file held");
  }
}
