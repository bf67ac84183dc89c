package dev.sessionless.devicebinding;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The client side of the DBSC draft, written from the draft and independent of the module's
 * own parsing: its own key pair (ES256 or RS256), its own structured-field reading, its own
 * JWS signing with the JDK. It reads a registration header, signs the registration proof,
 * takes the session instructions, and later answers refresh challenges.
 */
final class SimulatedBrowser {
  static final JsonMapper JSON = JsonMapper.builder().build();
  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

  final String algorithm;
  final KeyPair keys;
  String sessionId;
  String refreshUrl;
  List<String> boundCookies = new ArrayList<>();
  String cachedChallenge;

  final Clock clock;

  SimulatedBrowser(String algorithm, Clock clock) {
    this.algorithm = algorithm;
    this.clock = clock;
    this.keys = generate(algorithm);
  }

  /** One member of a Secure-Session-Registration list, as the browser reads it. */
  record Offer(List<String> algorithms, Map<String, String> params) {}

  /** Reads a registration header's members: inner lists of tokens with string parameters. */
  static List<Offer> readRegistration(String header) {
    List<Offer> offers = new ArrayList<>();
    Matcher m = Pattern.compile("\\(([A-Za-z0-9 ]*)\\)((?:;[a-z_]+=\"(?:[^\"\\\\]|\\\\.)*\")*)").matcher(header);
    while (m.find()) {
      Map<String, String> params = new LinkedHashMap<>();
      Matcher p = Pattern.compile(";([a-z_]+)=\"((?:[^\"\\\\]|\\\\.)*)\"").matcher(m.group(2));
      while (p.find()) {
        params.put(p.group(1), p.group(2).replace("\\\"", "\"").replace("\\\\", "\\"));
      }
      offers.add(new Offer(List.of(m.group(1).trim().split(" +")), params));
    }
    return offers;
  }

  /** The Secure-Session-Response value for a registration offer this browser supports, or null; {@code audience} null sends the draft's payload. */
  String register(String registrationHeader, String audience) {
    for (Offer offer : readRegistration(registrationHeader)) {
      if (offer.algorithms().contains(algorithm) && offer.params().containsKey("path")) {
        // The draft's payload: jti (and authorization); aud and iat only when asked for (older shape).
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("jti", offer.params().get("challenge"));
        if (audience != null) {
          payload.put("aud", audience);
          payload.put("iat", clock.instant().getEpochSecond());
        }
        if (offer.params().containsKey("authorization")) {
          payload.put("authorization", offer.params().get("authorization"));
        }
        Map<String, Object> header = new LinkedHashMap<>();
        header.put("alg", algorithm);
        header.put("typ", "dbsc+jwt");
        header.put("jwk", publicJwk());
        return quote(sign(header, payload));
      }
    }
    return null;
  }

  /** Takes the registration (or refresh) endpoint's JSON session instructions. */
  void accept(String instructions) {
    JsonNode root = JSON.readTree(instructions);
    sessionId = root.get("session_identifier").stringValue();
    if (root.has("refresh_url")) {
      refreshUrl = root.get("refresh_url").stringValue();
    }
    boundCookies = new ArrayList<>();
    for (JsonNode c : root.get("credentials")) {
      boundCookies.add(c.get("name").stringValue());
    }
  }

  /** Reads a Secure-Session-Challenge value and caches the challenge if it is for this session. */
  void takeChallenge(String header) {
    Matcher m = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\";id=\"((?:[^\"\\\\]|\\\\.)*)\"").matcher(header);
    while (m.find()) {
      if (m.group(2).equals(sessionId)) {
        cachedChallenge = m.group(1);
      }
    }
  }

  /** The Secure-Session-Response value answering the cached challenge (no jwk, as the draft says); {@code audience} null for none. */
  String refreshProof(String audience) {
    Map<String, Object> header = new LinkedHashMap<>();
    header.put("alg", algorithm);
    header.put("typ", "dbsc+jwt");
    Map<String, Object> payload = new LinkedHashMap<>();
    payload.put("jti", cachedChallenge);
    if (audience != null) {
      payload.put("aud", audience);
    }
    return quote(sign(header, payload));
  }

  /** The public JWK, as a browser puts it in the registration proof's header. */
  Map<String, Object> publicJwk() {
    Map<String, Object> jwk = new LinkedHashMap<>();
    if (keys.getPublic() instanceof ECPublicKey ec) {
      jwk.put("kty", "EC");
      jwk.put("crv", "P-256");
      jwk.put("x", B64.encodeToString(fixed(ec.getW().getAffineX().toByteArray(), 32)));
      jwk.put("y", B64.encodeToString(fixed(ec.getW().getAffineY().toByteArray(), 32)));
    } else {
      RSAPublicKey rsa = (RSAPublicKey) keys.getPublic();
      jwk.put("kty", "RSA");
      jwk.put("n", B64.encodeToString(strip(rsa.getModulus().toByteArray())));
      jwk.put("e", B64.encodeToString(strip(rsa.getPublicExponent().toByteArray())));
    }
    return jwk;
  }

  /** A compact JWS of these header and payload members, signed with this browser's key. */
  String sign(Map<String, Object> header, Map<String, Object> payload) {
    return signRaw(JSON.writeValueAsString(header), JSON.writeValueAsString(payload));
  }

  /** A compact JWS of this header and payload text, signed with this browser's key (for attacks on the format). */
  String signRaw(String headerJson, String payloadJson) {
    String input = B64.encodeToString(headerJson.getBytes(StandardCharsets.UTF_8)) + "."
        + B64.encodeToString(payloadJson.getBytes(StandardCharsets.UTF_8));
    try {
      Signature s = Signature.getInstance(algorithm.equals("ES256") ? "SHA256withECDSAinP1363Format" : "SHA256withRSA");
      s.initSign(keys.getPrivate());
      s.update(input.getBytes(StandardCharsets.US_ASCII));
      return input + "." + B64.encodeToString(s.sign());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  static String quote(String s) {
    return "\"" + s + "\"";
  }

  private static KeyPair generate(String algorithm) {
    try {
      if (algorithm.equals("ES256")) {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"));
        return g.generateKeyPair();
      }
      KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
      g.initialize(2048);
      return g.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] fixed(byte[] b, int len) {
    byte[] out = new byte[len];
    int copy = Math.min(b.length, len);
    System.arraycopy(b, b.length - copy, out, len - copy, copy);
    return out;
  }

  static byte[] strip(byte[] b) {
    int i = 0;
    while (i < b.length - 1 && b[i] == 0) {
      i++;
    }
    return java.util.Arrays.copyOfRange(b, i, b.length);
  }
}
