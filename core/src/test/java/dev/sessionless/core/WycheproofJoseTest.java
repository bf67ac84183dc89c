package dev.sessionless.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.sessionless.core.TokenException.Reason;
import dev.sessionless.core.internal.Base64Url;
import dev.sessionless.core.internal.HeaderParser;
import dev.sessionless.core.internal.WycheproofFiles;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * Wycheproof's JOSE files through the project's own readers: each group's key through {@code
 * TokenKey.fromJwk} or {@code KeySet.fromJwks}, each token through {@code TokenCodec.decode}.
 *
 * <p>The vectors' payloads are not session claims ({@code "foo"}, {@code "Test"}), so no codec
 * can accept them: a codec reads claims only after the signature holds, and a token "accepted"
 * here is one whose refusal comes from that claims stage ({@link #CLAIMS_STAGE}) and not before.
 * The same verdict is reached a second way, at the JWS layer alone ({@link #jwsVerifies}: the
 * project's strict base64url, its header parser and the key's engine, without the codec's claim
 * rules), and both must agree.
 *
 * <p>Treated otherwise, with the reason, in {@link #JWS_OTHERWISE} and {@link #JWK_OTHERWISE};
 * not applicable, by rule: a valid vector whose key or algorithm the project does not implement
 * (RSA, PS*, ES384/512, and every JWE key management but {@code dir}), which is refused.
 */
@Timeout(120)
class WycheproofJoseTest {
  /** The refusals a codec gives only once the signature has held: the payload is not claims. */
  static final Pattern CLAIMS_STAGE = Pattern.compile("the payload is not (valid JSON|a JSON object).*");

  /** The JWS algorithms the project implements; a JWK naming another one is refused. */
  private static final Set<String> JWS_ALGORITHMS = Set.of("HS256", "HS384", "HS512", "ES256", "EdDSA");

  static final Map<Integer, String> JWS_OTHERWISE = Map.of(
      367, "the token is byte for byte #357's, which the same file calls valid: the padding its comment"
          + " names was lost from the file, so no reader can give both answers; this one gives #357's",
      370, "byte for byte #357's again (see #367)",
      372, "'?' in the header segment: base64url is decoded strictly (RFC 7515 section 2, no"
          + " characters outside the alphabet), so a token a lenient decoder would read is refused",
      373, "'?' in the payload segment: refused for the same strict base64url");

  static final Map<Integer, String> JWK_OTHERWISE = Map.of(
      1, "a key set holding HMAC secrets beside public EC keys is read as is: each key is bound"
          + " to one algorithm and a token's alg must equal its key's, so mixing kinds in one set"
          + " opens no algorithm confusion (Wycheproof marks this vector Ambiguous)");

  /** Reads keys and decodes tokens. */
  private static final class Run {
    /** The key set a group describes, or {@code null} when the project refuses its keys. */
    KeySet keys(JsonNode jwk) {
      try {
        return jwk.has("keys") ? KeySet.fromJwks(jwk.toString()) : KeySet.of(TokenKey.fromJwk(jwk.toString()));
      } catch (IllegalArgumentException refused) {
        return null;
      }
    }
  }


  /** Whether every key of a group is of a JWS algorithm the project implements. */
  private static boolean implemented(JsonNode jwk) {
    for (JsonNode k : jwk.has("keys") ? jwk.get("keys") : List.of(jwk)) {
      String alg = k.path("alg").asString("");
      String crv = k.path("crv").asString("");
      boolean implied = alg.isEmpty() && (crv.equals("P-256") || crv.equals("Ed25519")); // EC/OKP default their alg
      if (!implied && !JWS_ALGORITHMS.contains(alg)) {
        return false;
      }
    }
    return true;
  }

  /** The key a verifier holds: the public JWK when the group has one, else the private one. */
  private static JsonNode verifyingKey(JsonNode group) {
    return group.has("public") ? group.get("public") : group.get("private");
  }

  /**
   * Whether {@code jws} verifies as a compact JWS under {@code set}, at the JWS layer only: the
   * header through the project's parser, the segments through its strict base64url, the
   * signature through the key's engine, the key found by {@code kid} and bound to {@code alg}.
   */
  static boolean jwsVerifies(String jws, KeySet set) {
    int d1 = jws.indexOf('.');
    int d2 = d1 < 0 ? -1 : jws.indexOf('.', d1 + 1);
    if (d2 < 0 || jws.indexOf('.', d2 + 1) >= 0 || !StandardCharsets.US_ASCII.newEncoder().canEncode(jws)) {
      return false;
    }
    byte[] b = jws.getBytes(StandardCharsets.US_ASCII);
    HeaderParser.Header h;
    try {
      h = HeaderParser.parse(b, 0, d1);
    } catch (TokenException refused) {
      return false;
    }
    TokenKey key = h.kid() == null ? null : set.keyOrNull(h.kid());
    if (key == null || key.algorithm().isEncrypting() || !key.algorithm().joseName().equals(h.alg())) {
      return false;
    }
    byte[] payload = Base64Url.decode(jws.substring(d1 + 1, d2));
    byte[] sig = Base64Url.decode(jws.substring(d2 + 1));
    return payload != null && sig != null && key.engine().verify(b, d2, sig, sig.length);
  }

  /** A codec over {@code set} that accepts every algorithm the project implements. */
  static TokenCodec codec(KeySource set, Algorithm own) {
    Algorithm[] all = {Algorithm.HS256, Algorithm.HS384, Algorithm.HS512, Algorithm.ES256, Algorithm.EDDSA,
        Algorithm.DIR_A256GCM};
    return TokenCodec.builder().keys(set).algorithm(own).acceptAlgorithms(all[0], all)
        .issuer("https://issuer.example").audience("wycheproof").timeToLive(Duration.ofHours(1))
        .verificationCache(0).build();
  }

  /**
   * Whether the codec got past the signature with {@code token}: its refusal comes from the
   * claims stage. Any failure of another type, or {@code INTERNAL}, fails the test.
   */
  static boolean codecPassesSignature(TokenCodec codec, String token, String where) {
    try {
      codec.decode(token);
      return true; // no vector payload is a claims set; this would be a surprise worth seeing
    } catch (TokenException e) {
      assertNotEquals(Reason.INTERNAL, e.reason(), where + ": " + e.getMessage());
      return e.reason() == Reason.MALFORMED && CLAIMS_STAGE.matcher(e.getMessage()).matches();
    } catch (RuntimeException e) {
      throw new AssertionError(where + ": decode threw " + e + " instead of a TokenException", e);
    }
  }

  /** Runs one JWS-shaped file (JWS or JWK) and returns its tally. */
  private static WycheproofFiles.Tally runSignatures(String file, Map<Integer, String> otherwise, Run run,
      int[] notApplicable) {
    JsonNode root = WycheproofFiles.load(file);
    WycheproofFiles.Tally tally = new WycheproofFiles.Tally(file, otherwise);
    for (JsonNode group : root.get("testGroups")) {
      JsonNode jwk = verifyingKey(group);
      boolean implemented = implemented(jwk);
      KeySet set = run.keys(jwk);
      for (JsonNode t : group.get("tests")) {
        int id = t.get("tcId").asInt();
        String token = t.get("jws").isString() ? t.get("jws").stringValue() : t.get("jws").toString();
        boolean valid = "valid".equals(t.get("result").stringValue());
        String where = file + " #" + id;
        if (set == null) {
          if (valid && !implemented) {
            notApplicable[0]++;
          } else {
            if (!implemented) {
              notApplicable[1]++; // an invalid vector refused because its algorithm is not implemented
            }
            tally.record(id, valid, false, t.get("comment").stringValue());
          }
          continue;
        }
        boolean layer = jwsVerifies(token, set);
        boolean codec = codecPassesSignature(codec(set, set.keys().get(0).algorithm()), token, where);
        assertEquals(layer, codec, where + ": the JWS layer and the codec disagree");
        tally.record(id, valid, codec, t.get("comment").stringValue());
      }
    }
    assertTrue(tally.problems().isEmpty(), String.join("\n", tally.problems()));
    assertEquals(root.get("numberOfTests").asInt(), tally.held() + tally.deviated() + notApplicable[0],
        file + ": every vector ran");
    return tally;
  }

  @Test
  void everyApplicableJwsVectorHolds() {
    int[] notApplicable = {0, 0};
    WycheproofFiles.Tally t = runSignatures("json_web_signature_test.json", JWS_OTHERWISE, new Run(), notApplicable);
    assertEquals(JWS_OTHERWISE.size(), t.deviated());
    assertEquals(363, t.held(), "vectors with Wycheproof's answer");
    assertEquals(34, notApplicable[0], "valid vectors of algorithms the project does not implement");
    assertEquals(286, notApplicable[1], "of those, invalid vectors refused at a key the project does not implement");
  }

  @Test
  void everyApplicableJwkVectorHolds() {
    int[] notApplicable = {0, 0};
    WycheproofFiles.Tally t = runSignatures("json_web_key_test.json", JWK_OTHERWISE, new Run(), notApplicable);
    assertEquals(JWK_OTHERWISE.size(), t.deviated());
    assertEquals(24, t.held(), "vectors with Wycheproof's answer");
    assertEquals(1, notApplicable[0], "valid vectors of algorithms the project does not implement");
  }

  /**
   * No JWE vector uses {@code dir} with {@code A256GCM}, the only JWE the project reads, so none
   * applies: every group's key is refused by the JWK reader (its {@code alg} names another key
   * management or content encryption), and every token is refused with a {@link TokenException}
   * (never another failure) by a {@code dir}/{@code A256GCM} codec that holds a key under the
   * token's {@code kid}.
   */
  @Test
  void noJweVectorIsAcceptedAndEveryOneIsRefusedCleanly() {
    String file = "json_web_encryption_test.json";
    JsonNode root = WycheproofFiles.load(file);
    Run run = new Run();
    int ran = 0;
    for (JsonNode group : root.get("testGroups")) {
      JsonNode jwk = group.get("private");
      assertEquals(null, run.keys(jwk), file + ": the key of group " + group.get("comment") + " must be refused");
      String kid = jwk.path("kid").asString("kid-aes-encrypt");
      KeySet set = KeySet.of(TokenKey.generate(kid, Algorithm.DIR_A256GCM));
      TokenCodec codec = codec(set, Algorithm.DIR_A256GCM);
      for (JsonNode t : group.get("tests")) {
        String token = t.get("jwe").isString() ? t.get("jwe").stringValue() : t.get("jwe").toString();
        String where = file + " #" + t.get("tcId").asInt();
        TokenException e = assertThrows(TokenException.class, () -> codec.decode(token), where);
        assertNotEquals(Reason.INTERNAL, e.reason(), where + ": " + e.getMessage());
        ran++;
      }
    }
    assertEquals(root.get("numberOfTests").asInt(), ran);
  }

  /**
   * A key its publisher reserved for another use is refused when read (Wycheproof JWS #354,
   * #356 and JWK #21 found the reader ignoring {@code use} and {@code key_ops}).
   */
  @Test
  void aJwkReservedForAnotherUseIsRefused() {
    String ec = "\"kty\":\"EC\",\"crv\":\"P-256\",\"kid\":\"k\",\"x\":\"04N0xi21hshyvBp7I167sbE_bXqyqkAPfefdklMO7wY\","
        + "\"y\":\"UI8exy-C06a7DUnjIdENkxeFtHM4-l_41LqEw9nVgmw\"";
    assertThrows(IllegalArgumentException.class, () -> TokenKey.fromJwk("{" + ec + ",\"use\":\"enc\"}"));
    assertThrows(IllegalArgumentException.class, () -> TokenKey.fromJwk("{" + ec + ",\"key_ops\":[\"encrypt\"]}"));
    assertThrows(IllegalArgumentException.class, () -> TokenKey.fromJwk("{" + ec + ",\"key_ops\":\"verify\"}"));
    assertEquals(Algorithm.ES256, TokenKey.fromJwk("{" + ec + ",\"use\":\"sig\",\"key_ops\":[\"verify\"]}").algorithm());
    String dir = "\"kty\":\"oct\",\"kid\":\"d\",\"alg\":\"dir\",\"k\":\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\"";
    assertThrows(IllegalArgumentException.class, () -> TokenKey.fromJwk("{" + dir + ",\"use\":\"sig\"}"));
    assertEquals(Algorithm.DIR_A256GCM, TokenKey.fromJwk("{" + dir + ",\"use\":\"enc\",\"key_ops\":[\"decrypt\"]}").algorithm());
    TokenKey own = TokenKey.generate("own", Algorithm.DIR_A256GCM);
    assertEquals(Algorithm.DIR_A256GCM, TokenKey.fromJwk(own.toJwkWithSecrets()).algorithm(), "the project's own JWK reads back");
  }

  /**
   * The claims-stage check tells the stages apart: a token of the codec itself is accepted, a
   * {@code "foo"} payload under a good MAC counts as past the signature (if the claims reader's
   * messages change, this fails first and names {@link #CLAIMS_STAGE}), and a bad MAC does not.
   */
  @Test
  void theClaimsStageCheckRecognisesOnlyARefusalAfterTheSignature() {
    TokenKey key = TokenKey.generate("k", Algorithm.HS256);
    TokenCodec codec = codec(KeySet.of(key), Algorithm.HS256);
    String token = codec.encode(Claims.builder().subject("s").build());
    if (!codecPassesSignature(codec, token, "own token")) {
      fail("a token of the codec itself must count as accepted");
    }
    String[] parts = token.split("\\.");
    String input = parts[0] + ".Zm9v";
    byte[] in = input.getBytes(StandardCharsets.US_ASCII);
    byte[] mac = new byte[64];
    int n = key.engine().sign(in, in.length, mac);
    String signedFoo = input + "." + Base64Url.encode(java.util.Arrays.copyOf(mac, n));
    assertTrue(codecPassesSignature(codec, signedFoo, "signed foo"), "the claims stage is matched by " + CLAIMS_STAGE);
    assertEquals(false, codecPassesSignature(codec, input + "." + parts[2], "forged"));
  }
}
