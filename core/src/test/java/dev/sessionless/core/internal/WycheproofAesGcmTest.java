package dev.sessionless.core.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * Wycheproof's AES-GCM vectors through {@link AesGcmEngine}, which serves {@code dir} +
 * {@code A256GCM} only: a 256-bit key, a 96-bit IV and a 128-bit tag (RFC 7518 section 5.3).
 * Those vectors are decrypted (valid: the plaintext comes back; invalid: refused), and the valid
 * ones are also produced byte for byte by the engine's encryption, with the vector's IV handed to
 * it in place of the random one.
 *
 * <p><b>Not applicable, by rule:</b> vectors with a 128- or 192-bit key (the engine refuses any
 * key but 32 bytes, which is checked for each of them) and vectors with an IV other than 96
 * bits (the engine reads exactly 12 IV bytes, and the token reader refuses any other IV
 * length before decrypting).
 */
@Timeout(120)
class WycheproofAesGcmTest {
  private static final String FILE = "aes_gcm_test.json";

  @Test
  void everyA256GcmVectorWithA96BitIvHoldsAndOtherKeySizesAreRefused() {
    JsonNode root = WycheproofFiles.load(FILE);
    WycheproofFiles.Tally tally = new WycheproofFiles.Tally(FILE, Map.of());
    int otherKeySize = 0;
    int otherIvSize = 0;
    for (JsonNode group : root.get("testGroups")) {
      int keyBits = group.get("keySize").asInt();
      int ivBits = group.get("ivSize").asInt();
      assertEquals(128, group.get("tagSize").asInt(), "the file has only 128-bit tags");
      for (JsonNode t : group.get("tests")) {
        int id = t.get("tcId").asInt();
        byte[] key = WycheproofFiles.hex(t.get("key").stringValue());
        if (keyBits != 256) {
          otherKeySize++;
          assertThrows(IllegalArgumentException.class, () -> new AesGcmEngine(key), FILE + " #" + id);
          continue;
        }
        if (ivBits != 96) {
          otherIvSize++;
          continue;
        }
        byte[] iv = WycheproofFiles.hex(t.get("iv").stringValue());
        byte[] aad = WycheproofFiles.hex(t.get("aad").stringValue());
        byte[] msg = WycheproofFiles.hex(t.get("msg").stringValue());
        byte[] ct = WycheproofFiles.hex(t.get("ct").stringValue());
        byte[] tag = WycheproofFiles.hex(t.get("tag").stringValue());
        boolean valid = "valid".equals(t.get("result").stringValue());
        AesGcmEngine engine = new AesGcmEngine(key);
        byte[] in = Arrays.copyOf(ct, ct.length + tag.length);
        System.arraycopy(tag, 0, in, ct.length, tag.length);
        byte[] out = new byte[in.length];
        int n = tag.length != AesGcmEngine.TAG_BYTES ? -1 : engine.decrypt(aad, aad.length, iv, in, in.length, out);
        boolean accepted = n >= 0;
        if (accepted) {
          assertArrayEquals(msg, Arrays.copyOf(out, n), FILE + " #" + id + ": the plaintext");
        }
        tally.record(id, valid, accepted, t.get("comment").stringValue());
        if (valid) {
          byte[] ivOut = new byte[AesGcmEngine.IV_BYTES];
          byte[] produced = new byte[msg.length + AesGcmEngine.TAG_BYTES];
          int k = engine.encrypt(aad, aad.length, msg, msg.length, new FakeRandom(iv), ivOut, produced);
          assertArrayEquals(iv, ivOut, FILE + " #" + id);
          assertArrayEquals(in, Arrays.copyOf(produced, k), FILE + " #" + id + ": ciphertext and tag produced");
        }
      }
    }
    assertTrue(tally.problems().isEmpty(), String.join("\n", tally.problems()));
    assertEquals(66, tally.held(), "256-bit key, 96-bit IV vectors checked");
    assertEquals(root.get("numberOfTests").asInt(), tally.held() + otherKeySize + otherIvSize, "every vector ran");
  }
}
