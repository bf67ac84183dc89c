package dev.sessionless.core;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import dev.sessionless.core.internal.Base64Url;
import dev.sessionless.core.internal.BouncyCastleCheck;
import dev.sessionless.core.internal.EcP256Engine;
import dev.sessionless.core.internal.Ed25519Engine;
import dev.sessionless.core.internal.JwkJson;
import dev.sessionless.core.internal.KeyEngine;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * JWK (RFC 7517) and JWKS reading and writing for {@link TokenKey} and {@link KeySet}, in one
 * place: the members, the lifecycle instants and their checks.
 */
final class Jwk {
  private Jwk() {}

  /**
   * Reads the keys of a JWKS document, {@code {"keys": [...]}}: every one, or with {@code skipped}
   * those it can, telling {@code skipped} of each other one (its kid, or {@code #} and its
   * position when it has no usable kid, and why, in printable ASCII).
   */
  static List<TokenKey> readSet(String json, BiConsumer<String, String> skipped) {
    Objects.requireNonNull(json, "json");
    JsonNode root = JwkJson.readTree(json, "JWKS");
    if (root == null || !root.isObject() || !root.path("keys").isArray()) {
      throw new IllegalArgumentException("a JWKS must be a JSON object with a \"keys\" array");
    }
    List<TokenKey> keys = new ArrayList<>();
    int position = 0;
    for (JsonNode n : root.get("keys")) {
      position++;
      if (skipped == null) {
        keys.add(readKey(n));
        continue;
      }
      try {
        keys.add(readKey(n));
      } catch (IllegalArgumentException e) {
        skipped.accept(usableKid(n).orElse("#" + position), printable(e.getMessage()));
      }
    }
    return keys;
  }

  private static Optional<String> usableKid(JsonNode n) {
    JsonNode kid = n.isObject() ? n.get("kid") : null;
    if (kid == null || !kid.isString()) {
      return Optional.empty();
    }
    try {
      TokenKey.checkKid(kid.stringValue());
      return Optional.of(kid.stringValue());
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** A message that quotes a document's values, made safe for a log line. */
  private static String printable(String s) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < s.length() && i < 200; i++) {
      char c = s.charAt(i);
      sb.append(c >= 0x20 && c < 0x7f ? c : '?');
    }
    return sb.toString();
  }

  /** A JWKS of {@code keys}: with secrets, or only the public keys (symmetric keys left out). */
  static String writeSet(List<TokenKey> keys, boolean withSecrets) {
    ObjectNode root = JwkJson.MAPPER.createObjectNode();
    ArrayNode arr = root.putArray("keys");
    for (TokenKey k : keys) {
      if (withSecrets || !k.algorithm().isSymmetric()) {
        arr.add(toNode(k, withSecrets));
      }
    }
    return JwkJson.write(root);
  }

  /** Reads one key from a parsed JWK object. */
  static TokenKey readKey(JsonNode node) {
    if (node == null || !node.isObject()) {
      throw new IllegalArgumentException("a JWK must be a JSON object");
    }
    String kty = text(node, "kty", true);
    String kid = text(node, "kid", true);
    TokenKey.checkKid(kid);
    String alg = text(node, "alg", false);
    String enc = text(node, "enc", false);
    TokenKey key;
    switch (kty) {
      case "oct": {
        if (alg == null) {
          throw new IllegalArgumentException("JWK '" + kid + "': an oct key needs \"alg\"");
        }
        Algorithm a = Algorithm.fromJose(alg, alg.equals("dir") ? (enc == null ? "A256GCM" : enc) : null)
            .filter(Algorithm::isSymmetric)
            .orElseThrow(() -> new IllegalArgumentException(
                "JWK '" + kid + "': unsupported algorithm for an oct key: " + alg));
        key = TokenKey.secret(kid, a, bytes(node, "k", kid, true));
        break;
      }
      case "EC": {
        requireCurve(node, "P-256", kid);
        requireAlg(alg, "ES256", kid);
        BouncyCastleCheck.require("ES256");
        EcP256Engine e = EcP256Engine.of(bytes(node, "x", kid, true), bytes(node, "y", kid, true),
            bytes(node, "d", kid, false));
        key = new TokenKey(kid, Algorithm.ES256, e, null, TokenKey.NONE_BEFORE, TokenKey.NONE_BEFORE, TokenKey.NONE_AFTER, TokenKey.NONE_AFTER);
        break;
      }
      case "OKP": {
        requireCurve(node, "Ed25519", kid);
        requireAlg(alg, "EdDSA", kid);
        BouncyCastleCheck.require("EdDSA");
        Ed25519Engine e = Ed25519Engine.of(bytes(node, "x", kid, true), bytes(node, "d", kid, false));
        key = new TokenKey(kid, Algorithm.EDDSA, e, null, TokenKey.NONE_BEFORE, TokenKey.NONE_BEFORE, TokenKey.NONE_AFTER, TokenKey.NONE_AFTER);
        break;
      }
      default:
        throw new IllegalArgumentException("JWK '" + kid + "': unsupported key type " + kty);
    }
    checkIntendedUse(node, key.algorithm(), kid);
    long p = seconds(node, "published", TokenKey.NONE_BEFORE, kid);
    long a = seconds(node, "activates", TokenKey.NONE_BEFORE, kid);
    long r = seconds(node, "retires", TokenKey.NONE_AFTER, kid);
    long x = seconds(node, "expires", TokenKey.NONE_AFTER, kid);
    key.checkOrder(p, a, r, x);
    return new TokenKey(key.kid(), key.algorithm(), key.engine(), key.secretOrNull(), p, a, r, x);
  }

  /** One key as a JWK object, with or without its secret or private part. */
  static ObjectNode toNode(TokenKey key, boolean withSecrets) {
    Algorithm algorithm = key.algorithm();
    KeyEngine engine = key.engine();
    ObjectNode n = JwkJson.MAPPER.createObjectNode();
    switch (algorithm) {
      case ES256: {
        EcP256Engine e = (EcP256Engine) engine;
        n.put("kty", "EC").put("crv", "P-256")
            .put("x", Base64Url.encode(e.x())).put("y", Base64Url.encode(e.y()));
        if (withSecrets && e.canSign()) {
          n.put("d", Base64Url.encode(e.d()));
        }
        break;
      }
      case EDDSA: {
        Ed25519Engine e = (Ed25519Engine) engine;
        n.put("kty", "OKP").put("crv", "Ed25519").put("x", Base64Url.encode(e.x()));
        if (withSecrets && e.canSign()) {
          n.put("d", Base64Url.encode(e.d()));
        }
        break;
      }
      default:
        n.put("kty", "oct");
        if (withSecrets) {
          n.put("k", Base64Url.encode(key.secretOrNull()));
        }
    }
    n.put("kid", key.kid()).put("alg", algorithm.joseName());
    algorithm.encryption().ifPresent(enc -> n.put("enc", enc));
    n.put("use", algorithm.isEncrypting() ? "enc" : "sig");
    putSeconds(n, "published", key.publishedSecond());
    putSeconds(n, "activates", key.activatesSecond());
    putSeconds(n, "retires", key.retiresSecond());
    putSeconds(n, "expires", key.expiresSecond());
    return n;
  }

  private static String text(JsonNode n, String name, boolean required) {
    JsonNode v = n.get(name);
    if (v == null || v.isNull()) {
      if (required) {
        throw new IllegalArgumentException("the JWK has no \"" + name + "\"");
      }
      return null;
    }
    if (!v.isString()) {
      throw new IllegalArgumentException("the JWK member \"" + name + "\" is not a string");
    }
    return v.stringValue();
  }

  private static byte[] bytes(JsonNode n, String name, String kid, boolean required) {
    String s = text(n, name, required);
    if (s == null) {
      return null;
    }
    byte[] b = Base64Url.decode(s);
    if (b == null) {
      throw new IllegalArgumentException("JWK '" + kid + "': \"" + name + "\" is not canonical base64url");
    }
    return b;
  }

  private static void requireCurve(JsonNode n, String crv, String kid) {
    String c = text(n, "crv", true);
    if (!crv.equals(c)) {
      throw new IllegalArgumentException("JWK '" + kid + "': unsupported curve " + c + " (only " + crv + ")");
    }
  }

  private static void requireAlg(String alg, String expected, String kid) {
    if (alg != null && !alg.equals(expected)) {
      throw new IllegalArgumentException("JWK '" + kid + "': alg " + alg + " does not fit this key type; expected " + expected);
    }
  }

  /**
   * Refuses a key its publisher marked for another use: {@code use} (RFC 7517 section 4.2), when
   * present, must be {@code sig} for a signing algorithm and {@code enc} for {@code dir}; {@code
   * key_ops} (section 4.3), when present, must name at least one operation of that kind ({@code
   * sign} or {@code verify}; {@code encrypt} or {@code decrypt}).
   */
  private static void checkIntendedUse(JsonNode n, Algorithm a, String kid) {
    String kind = a.isEncrypting() ? "enc" : "sig";
    String use = text(n, "use", false);
    if (use != null && !use.equals(kind)) {
      throw new IllegalArgumentException("JWK '" + kid + "': \"use\" is \"" + use + "\", but a "
          + a.joseName() + " key is for \"" + kind + "\": the key's publisher reserved it for another use");
    }
    JsonNode ops = n.get("key_ops");
    if (ops == null || ops.isNull()) {
      return;
    }
    if (!ops.isArray()) {
      throw new IllegalArgumentException("JWK '" + kid + "': \"key_ops\" must be an array of strings");
    }
    List<String> fitting = a.isEncrypting() ? List.of("encrypt", "decrypt") : List.of("sign", "verify");
    boolean fits = false;
    for (JsonNode op : ops) {
      if (!op.isString()) {
        throw new IllegalArgumentException("JWK '" + kid + "': \"key_ops\" must be an array of strings");
      }
      fits |= fitting.contains(op.stringValue());
    }
    if (!fits) {
      throw new IllegalArgumentException("JWK '" + kid + "': \"key_ops\" allows none of " + fitting
          + ", which a " + a.joseName() + " key needs: the key's publisher reserved it for another use");
    }
  }

  private static long seconds(JsonNode n, String name, long absent, String kid) {
    JsonNode v = n.get(name);
    if (v == null || v.isNull()) {
      return absent;
    }
    if (!v.isIntegralNumber() || !v.canConvertToLong() || v.longValue() < 0) {
      throw new IllegalArgumentException("JWK '" + kid + "': \"" + name + "\" must be NumericDate seconds");
    }
    return v.longValue();
  }

  private static void putSeconds(ObjectNode n, String name, long s) {
    if (s != TokenKey.NONE_BEFORE && s != TokenKey.NONE_AFTER) {
      n.put(name, s);
    }
  }
}
