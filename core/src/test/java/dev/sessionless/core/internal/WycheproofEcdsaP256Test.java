package dev.sessionless.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * Wycheproof's ECDSA P-256 / SHA-256 vectors in IEEE P1363 form ({@code r || s}, the JWS form of
 * RFC 7518 section 3.4) through {@link EcP256Engine}: the public key read from its affine
 * coordinates as a JWK would give them, then every signature verified over its message.
 *
 * <p>Nothing is treated otherwise. Wycheproof marks both s and n - s valid (it does not ask for
 * low-S), and so does the engine, which is documented to accept both.
 */
@Timeout(120)
class WycheproofEcdsaP256Test {
  private static final String FILE = "ecdsa_secp256r1_sha256_p1363_test.json";

  @Test
  void everyP1363VectorHolds() {
    JsonNode root = WycheproofFiles.load(FILE);
    assertEquals("secp256r1", root.get("testGroups").get(0).get("publicKey").get("curve").stringValue());
    WycheproofFiles.Tally tally = new WycheproofFiles.Tally(FILE, Map.of());
    for (JsonNode group : root.get("testGroups")) {
      JsonNode pk = group.get("publicKey");
      assertEquals("SHA-256", group.get("sha").stringValue());
      byte[] x = WycheproofFiles.fixed(WycheproofFiles.hex(pk.get("wx").stringValue()), 32);
      byte[] y = WycheproofFiles.fixed(WycheproofFiles.hex(pk.get("wy").stringValue()), 32);
      EcP256Engine engine = EcP256Engine.of(x, y, null);
      for (JsonNode t : group.get("tests")) {
        byte[] msg = WycheproofFiles.hex(t.get("msg").stringValue());
        byte[] sig = WycheproofFiles.hex(t.get("sig").stringValue());
        boolean accepted = engine.verify(msg, msg.length, sig, sig.length);
        tally.record(t.get("tcId").asInt(), "valid".equals(t.get("result").stringValue()), accepted,
            t.get("comment").stringValue());
      }
    }
    assertTrue(tally.problems().isEmpty(), String.join("\n", tally.problems()));
    assertEquals(root.get("numberOfTests").asInt(), tally.held(), "every vector of the file held");
  }
}
