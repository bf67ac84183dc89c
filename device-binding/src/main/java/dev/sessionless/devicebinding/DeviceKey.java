package dev.sessionless.devicebinding;

import dev.sessionless.devicebinding.DeviceBindingException.Reason;
import dev.sessionless.devicebinding.internal.Base64Url;
import dev.sessionless.devicebinding.internal.Json;
import dev.sessionless.devicebinding.internal.PublicKeys;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PublicKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.util.List;
import java.util.Objects;
import tools.jackson.databind.JsonNode;

/**
 * A device's public key as DBSC uses it: an EC P-256 key (signs ES256) or an RSA key of 2048 to
 * 8192 bits (signs RS256), with its RFC 7638 JWK thumbprint. Immutable; equal when the
 * thumbprints are.
 *
 * <p>The thumbprint is what a session token carries as {@code cnf.jkt} (RFC 7800) to say which
 * device it is bound to. The draft's refresh proof carries no key, so a stateless server must
 * also keep the public key itself in the long-lived token ({@link #toJwk()}, RFC 7800's {@code
 * cnf.jwk}) and read it back with {@link #fromJwk(String)}.
 */
public final class DeviceKey {
  private static final List<String> PRIVATE_MEMBERS = List.of("d", "p", "q", "dp", "dq", "qi", "oth", "k");

  private final PublicKey key;
  private final String algorithm;
  private final String canonicalJwk;
  private final String thumbprint;

  private DeviceKey(PublicKey key, String algorithm, String canonicalJwk) {
    this.key = key;
    this.algorithm = algorithm;
    this.canonicalJwk = canonicalJwk;
    this.thumbprint = Base64Url.encode(sha256(canonicalJwk.getBytes(StandardCharsets.US_ASCII)));
  }

  /**
   * The device key of a JDK public key.
   *
   * @param key an EC P-256 or an RSA public key
   * @throws DeviceBindingException {@code BAD_KEY} for another curve, a short RSA modulus or
   *     another kind of key
   */
  public static DeviceKey of(PublicKey key) {
    Objects.requireNonNull(key, "key");
    if (key instanceof ECPublicKey ec) {
      if (ec.getParams().getCurve().getField().getFieldSize() != 256
          || !ec.getParams().getCurve().equals(PublicKeys.p256Parameters().getCurve())) {
        throw new DeviceBindingException(Reason.BAD_KEY, "an EC device key must be on P-256 (ES256)");
      }
      byte[] x = PublicKeys.unsigned(ec.getW().getAffineX(), 32);
      byte[] y = PublicKeys.unsigned(ec.getW().getAffineY(), 32);
      return ec(PublicKeys.ecP256(x, y), x, y);
    }
    if (key instanceof RSAPublicKey rsa) {
      byte[] n = PublicKeys.unsigned(rsa.getModulus());
      byte[] e = PublicKeys.unsigned(rsa.getPublicExponent());
      return rsa(PublicKeys.rsa(n, e), n, e);
    }
    throw new DeviceBindingException(Reason.BAD_KEY, "a device key must be EC P-256 (ES256) or RSA (RS256), not "
        + key.getAlgorithm());
  }

  /**
   * Reads a public JWK (RFC 7517): {@code kty} {@code EC} with {@code crv} {@code P-256}, or
   * {@code kty} {@code RSA}. Other members ({@code kid}, {@code use}, {@code alg}) are ignored.
   *
   * @throws DeviceBindingException {@code MALFORMED} if it is not such a JSON object; {@code
   *     BAD_KEY} if it holds private members, another key type or curve, a point off the curve or
   *     an RSA modulus outside 2048 to 8192 bits
   */
  public static DeviceKey fromJwk(String json) {
    Objects.requireNonNull(json, "json");
    if (json.length() > 4096) {
      throw new DeviceBindingException(Reason.TOO_LARGE, "a device JWK is at most 4096 characters");
    }
    return fromJwk(Json.object(json.getBytes(StandardCharsets.UTF_8), "the JWK"));
  }

  /** As {@link #fromJwk(String)}, for a JWK already read (the proof header's {@code jwk}). */
  static DeviceKey fromJwk(JsonNode jwk) {
    if (jwk == null || !jwk.isObject()) {
      throw new DeviceBindingException(Reason.MALFORMED, "the JWK is not a JSON object");
    }
    for (String member : PRIVATE_MEMBERS) {
      if (jwk.has(member)) {
        throw new DeviceBindingException(Reason.BAD_KEY, "the JWK holds the private member \"" + member
            + "\": send only the public key, and treat this private key as exposed");
      }
    }
    String kty = Json.requiredString(jwk, "kty", "the JWK");
    switch (kty) {
      case "EC" -> {
        String crv = Json.requiredString(jwk, "crv", "the JWK");
        if (!crv.equals("P-256")) {
          throw new DeviceBindingException(Reason.BAD_KEY, "an EC device key must be on P-256 (ES256), not " + crv);
        }
        byte[] x = Base64Url.decode(Json.requiredString(jwk, "x", "the JWK"), "the JWK's x");
        byte[] y = Base64Url.decode(Json.requiredString(jwk, "y", "the JWK"), "the JWK's y");
        return ec(PublicKeys.ecP256(x, y), x, y);
      }
      case "RSA" -> {
        byte[] n = Base64Url.decode(Json.requiredString(jwk, "n", "the JWK"), "the JWK's n");
        byte[] e = Base64Url.decode(Json.requiredString(jwk, "e", "the JWK"), "the JWK's e");
        return rsa(PublicKeys.rsa(n, e), n, e);
      }
      default -> throw new DeviceBindingException(Reason.BAD_KEY, "a device key must be kty EC (P-256) or RSA;"
          + " this one is not");
    }
  }

  private static DeviceKey ec(ECPublicKey key, byte[] x, byte[] y) {
    // RFC 7638 section 3.2: the required members only, in lexicographic order, no whitespace.
    return new DeviceKey(key, DbscNames.ES256, "{\"crv\":\"P-256\",\"kty\":\"EC\",\"x\":\"" + Base64Url.encode(x)
        + "\",\"y\":\"" + Base64Url.encode(y) + "\"}");
  }

  private static DeviceKey rsa(RSAPublicKey key, byte[] n, byte[] e) {
    return new DeviceKey(key, DbscNames.RS256, "{\"e\":\"" + Base64Url.encode(e) + "\",\"kty\":\"RSA\",\"n\":\""
        + Base64Url.encode(n) + "\"}");
  }

  /** The JDK public key, for {@link java.security.Signature}. */
  public PublicKey publicKey() {
    return key;
  }

  /** The one JWS algorithm this key may sign with: {@code ES256} for P-256, {@code RS256} for RSA. */
  public String algorithm() {
    return algorithm;
  }

  /**
   * The RFC 7638 JWK thumbprint with SHA-256, base64url without padding: the value of {@code
   * cnf.jkt} (RFC 7800) that binds a session to this key.
   */
  public String thumbprint() {
    return thumbprint;
  }

  /**
   * Whether {@code jkt} is this key's thumbprint, compared in time that does not depend on where
   * they differ.
   */
  public boolean hasThumbprint(String jkt) {
    Objects.requireNonNull(jkt, "jkt");
    return MessageDigest.isEqual(thumbprint.getBytes(StandardCharsets.US_ASCII),
        jkt.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The public JWK with its required members only, in RFC 7638's canonical form (the input of
   * the thumbprint): what a long-lived token stores as {@code cnf.jwk} to verify refresh proofs
   * with; {@link #fromJwk(String)} reads it back.
   */
  public String toJwk() {
    return canonicalJwk;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DeviceKey other && other.thumbprint.equals(thumbprint);
  }

  @Override
  public int hashCode() {
    return thumbprint.hashCode();
  }

  /** The algorithm and thumbprint (public values). */
  @Override
  public String toString() {
    return "DeviceKey[" + algorithm + ", jkt=" + thumbprint + "]";
  }

  private static byte[] sha256(byte[] in) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(in);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
