package dev.sessionless.keyring;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;
import dev.sessionless.core.Algorithm;
import dev.sessionless.core.TokenKey;
import dev.sessionless.core.internal.KeyIds;
import dev.sessionless.keyring.KeyringException.Reason;
import java.io.IOException;
import java.io.StringReader;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.asn1.ASN1Primitive;
import org.bouncycastle.asn1.edec.EdECObjectIdentifiers;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.sec.ECPrivateKey;
import org.bouncycastle.asn1.sec.SECObjectIdentifiers;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.asn1.x9.ECNamedCurveTable;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.asn1.x9.X9ObjectIdentifiers;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.math.ec.ECPoint;
import org.bouncycastle.math.ec.FixedPointCombMultiplier;
import org.bouncycastle.math.ec.rfc8032.Ed25519;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;
import org.bouncycastle.util.BigIntegers;

/**
 * Reads one ES256 or EdDSA key from a PEM document, as written by OpenSSL, the JDK or a
 * certificate authority's tooling.
 *
 * <p>Accepted:
 *
 * <ul>
 *   <li>{@code -----BEGIN PRIVATE KEY-----}: PKCS#8 (RFC 5208/5958) holding an EC P-256 key
 *       (becomes {@link Algorithm#ES256}) or an Ed25519 key ({@link Algorithm#EDDSA});
 *   <li>{@code -----BEGIN EC PRIVATE KEY-----}: SEC1 (RFC 5915), P-256 only, optionally after
 *       the {@code EC PARAMETERS} block that {@code openssl ecparam -genkey} writes first;
 *   <li>{@code -----BEGIN PUBLIC KEY-----}: X.509 SubjectPublicKeyInfo (RFC 5280) of a P-256
 *       (uncompressed or compressed point) or Ed25519 key, giving a verification-only key.
 * </ul>
 *
 * <p>Everything else is refused with {@link Reason#MALFORMED} and a message that says what was
 * found: other curves (P-384, secp256k1, Ed448, X25519), RSA, explicit curve parameters,
 * certificates, encrypted PEM (decrypt it first, e.g. {@code openssl pkey -in key.pem -out
 * plain.pem}, into an owner-only file, or better keep keys in an {@link EncryptedJwks} file), or
 * more than one key.
 *
 * <p>The returned key has no lifecycle; give it one with {@link
 * TokenKey#withLifecycle(java.time.Instant, java.time.Instant, java.time.Instant,
 * java.time.Instant)}.
 *
 * <p><b>Security.</b> The private scalar is checked against the embedded public key when one is
 * present; messages never contain key material. The private key passes through a JWK string on
 * its way into {@link TokenKey}, which the JVM cannot erase; byte arrays are zeroed.
 *
 * <p>Stateless and thread-safe.
 */
public final class PemKeys {
  /** The largest PEM document read, in characters. */
  public static final int MAX_PEM_CHARS = 64 * 1024;

  private static final X9ECParameters P256 = CustomNamedCurves.getByName("secp256r1");
  private static final JsonMapper JSON = new JsonMapper();
  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

  private PemKeys() {}

  /**
   * Reads the one key in a PEM document.
   *
   * <p><b>Security.</b> A private key in a PEM string is a secret: read it from an owner-only
   * file or a secret store, and drop the string soon after.
   *
   * @param kid the key ID to give the key: 1 to 128 printable ASCII characters, without
   *     {@code "} or {@code \}
   * @param pem the PEM document
   * @return an ES256 or EdDSA key; verification-only for a public key
   * @throws IllegalArgumentException if the kid is not acceptable
   * @throws KeyringException {@link Reason#MALFORMED} if the document does not hold exactly one
   *     supported key
   */
  public static TokenKey read(String kid, String pem) {
    checkKid(kid);
    Objects.requireNonNull(pem, "pem");
    if (pem.length() > MAX_PEM_CHARS) {
      throw malformed("the PEM document is larger than " + MAX_PEM_CHARS + " characters");
    }
    List<Object> objects = new ArrayList<>();
    try (PEMParser parser = new PEMParser(new StringReader(pem))) {
      for (Object o = parser.readObject(); o != null; o = parser.readObject()) {
        objects.add(o);
        if (objects.size() > 2) {
          break;
        }
      }
    } catch (IOException | RuntimeException e) {
      // Bouncy Castle's message may describe the content; the cause is not kept.
      throw malformed("the PEM document cannot be parsed (bad base64 or DER, or an unknown block type)");
    }
    // `openssl ecparam -genkey` writes an EC PARAMETERS block before the key: allow it for P-256.
    if (objects.size() == 2 && objects.get(0) instanceof ASN1ObjectIdentifier) {
      requireP256((ASN1ObjectIdentifier) objects.get(0));
      objects.remove(0);
    }
    if (objects.isEmpty()) {
      throw malformed("the document holds no PEM object (expected -----BEGIN PRIVATE KEY----- or similar)");
    }
    if (objects.size() > 1) {
      throw malformed("the PEM document holds more than one object; put one key in each file");
    }
    Object o = objects.get(0);
    if (o instanceof PrivateKeyInfo) {
      return fromPrivate(kid, (PrivateKeyInfo) o);
    }
    if (o instanceof PEMKeyPair) {
      PEMKeyPair pair = (PEMKeyPair) o;
      return fromPrivate(kid, pair.getPrivateKeyInfo());
    }
    if (o instanceof SubjectPublicKeyInfo) {
      return fromPublic(kid, (SubjectPublicKeyInfo) o);
    }
    if (o instanceof PKCS8EncryptedPrivateKeyInfo || o instanceof PEMEncryptedKeyPair) {
      throw malformed("the PEM private key is encrypted, which is not supported: decrypt it"
          + " (openssl pkey) into an owner-only file, or use an encrypted key file");
    }
    if (o instanceof ASN1ObjectIdentifier || o instanceof X9ECParameters) {
      throw malformed("the PEM document holds EC parameters but no key");
    }
    throw malformed("the PEM document holds a " + describe(o) + ", not a private or public key");
  }

  /**
   * Reads the one key in a PEM file.
   *
   * <p><b>Security.</b> Keep private key files owner-only; this method does not check the file's
   * permissions.
   *
   * @param kid the key ID to give the key (see {@link #read(String, String)})
   * @param file the PEM file, at most {@value #MAX_PEM_CHARS} bytes
   * @return an ES256 or EdDSA key; verification-only for a public key
   * @throws IllegalArgumentException if the kid is not acceptable
   * @throws KeyringException {@link Reason#UNAVAILABLE} if the file cannot be read; {@link
   *     Reason#MALFORMED} if it is too large or does not hold exactly one supported key
   */
  public static TokenKey read(String kid, Path file) {
    checkKid(kid);
    Objects.requireNonNull(file, "file");
    byte[] bytes;
    try {
      if (Files.size(file) > MAX_PEM_CHARS) {
        throw malformed("the PEM file " + file + " is larger than " + MAX_PEM_CHARS + " bytes");
      }
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new KeyringException(Reason.UNAVAILABLE, "the PEM file " + file + " does not exist");
    } catch (IOException e) {
      throw new KeyringException(Reason.UNAVAILABLE,
          "the PEM file " + file + " cannot be read: " + e.getClass().getSimpleName());
    }
    try {
      return read(kid, new String(bytes, StandardCharsets.UTF_8));
    } finally {
      Arrays.fill(bytes, (byte) 0);
    }
  }

  // ---- private keys -------------------------------------------------------------------------

  private static TokenKey fromPrivate(String kid, PrivateKeyInfo info) {
    ASN1ObjectIdentifier type = info.getPrivateKeyAlgorithm().getAlgorithm();
    try {
      if (type.equals(X9ObjectIdentifiers.id_ecPublicKey)) {
        requireP256(info.getPrivateKeyAlgorithm().getParameters());
        return ecPrivate(kid, ECPrivateKey.getInstance(info.parsePrivateKey()));
      }
      if (type.equals(EdECObjectIdentifiers.id_Ed25519)) {
        byte[] seed = ASN1OctetString.getInstance(info.parsePrivateKey()).getOctets();
        byte[] embedded = info.getPublicKeyData() == null ? null : info.getPublicKeyData().getOctets();
        return edPrivate(kid, seed, embedded);
      }
    } catch (KeyringException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      // Bouncy Castle reads a member when it is asked for it: a member of the wrong ASN.1 type
      // surfaces here as a ClassCastException (or the like), not when the PEM is parsed.
      throw malformed("the PEM private key's DER structure is invalid");
    }
    throw unsupported(type);
  }

  private static TokenKey ecPrivate(String kid, ECPrivateKey ec) {
    BigInteger d = ec.getKey();
    if (d.signum() <= 0 || d.compareTo(P256.getN()) >= 0) {
      throw malformed("the P-256 private key is out of range");
    }
    ECPoint q = new FixedPointCombMultiplier().multiply(P256.getG(), d).normalize();
    if (ec.getPublicKey() != null) {
      ECPoint embedded = decodePoint(ec.getPublicKey().getOctets());
      if (!embedded.equals(q)) {
        throw malformed("the PEM private key's embedded public key does not match it");
      }
    }
    byte[] dBytes = BigIntegers.asUnsignedByteArray(32, d);
    try {
      return ecJwk(kid, q, dBytes);
    } finally {
      Arrays.fill(dBytes, (byte) 0);
    }
  }

  private static TokenKey edPrivate(String kid, byte[] seed, byte[] embeddedPublic) {
    try {
      if (seed.length != Ed25519.SECRET_KEY_SIZE) {
        throw malformed("the Ed25519 private key is not " + Ed25519.SECRET_KEY_SIZE + " bytes");
      }
      byte[] pub = new byte[Ed25519.PUBLIC_KEY_SIZE];
      Ed25519.generatePublicKey(seed, 0, pub, 0);
      if (embeddedPublic != null && !Arrays.equals(pub, embeddedPublic)) {
        throw malformed("the PEM private key's embedded public key does not match it");
      }
      ObjectNode jwk = JSON.createObjectNode().put("kty", "OKP").put("crv", "Ed25519")
          .put("x", B64.encodeToString(pub)).put("d", B64.encodeToString(seed))
          .put("kid", kid).put("alg", "EdDSA");
      return fromJwk(jwk);
    } finally {
      Arrays.fill(seed, (byte) 0);
    }
  }

  // ---- public keys --------------------------------------------------------------------------

  private static TokenKey fromPublic(String kid, SubjectPublicKeyInfo info) {
    ASN1ObjectIdentifier type = info.getAlgorithm().getAlgorithm();
    byte[] bits;
    try {
      bits = info.getPublicKeyData().getOctets();
    } catch (RuntimeException e) {
      // A BIT STRING whose length is not whole bytes: Bouncy Castle refuses it only here.
      throw malformed("the PEM public key's DER structure is invalid");
    }
    if (type.equals(X9ObjectIdentifiers.id_ecPublicKey)) {
      requireP256(info.getAlgorithm().getParameters());
      return ecJwk(kid, decodePoint(bits), null);
    }
    if (type.equals(EdECObjectIdentifiers.id_Ed25519)) {
      if (bits.length != Ed25519.PUBLIC_KEY_SIZE) {
        throw malformed("the Ed25519 public key is not " + Ed25519.PUBLIC_KEY_SIZE + " bytes");
      }
      return fromJwk(JSON.createObjectNode().put("kty", "OKP").put("crv", "Ed25519")
          .put("x", B64.encodeToString(bits)).put("kid", kid).put("alg", "EdDSA"));
    }
    throw unsupported(type);
  }

  // ---- helpers ------------------------------------------------------------------------------

  private static ECPoint decodePoint(byte[] encoded) {
    try {
      ECPoint p = P256.getCurve().decodePoint(encoded).normalize();
      if (p.isInfinity() || !p.isValid()) {
        throw malformed("the P-256 public key is not a valid point");
      }
      return p;
    } catch (IllegalArgumentException e) {
      throw malformed("the P-256 public key is not a valid point");
    }
  }

  private static TokenKey ecJwk(String kid, ECPoint q, byte[] d) {
    ObjectNode jwk = JSON.createObjectNode().put("kty", "EC").put("crv", "P-256")
        .put("x", B64.encodeToString(q.getAffineXCoord().getEncoded()))
        .put("y", B64.encodeToString(q.getAffineYCoord().getEncoded()));
    if (d != null) {
      jwk.put("d", B64.encodeToString(d));
    }
    return fromJwk(jwk.put("kid", kid).put("alg", "ES256"));
  }

  private static TokenKey fromJwk(ObjectNode jwk) {
    try {
      return TokenKey.fromJwk(jwk.toString());
    } catch (IllegalArgumentException e) {
      // Core's messages name members, never their values.
      throw malformed("the PEM key is not usable: " + e.getMessage());
    }
  }

  private static void requireP256(ASN1Encodable parameters) {
    if (parameters instanceof ASN1ObjectIdentifier) {
      ASN1ObjectIdentifier curve = (ASN1ObjectIdentifier) parameters;
      if (curve.equals(SECObjectIdentifiers.secp256r1)) {
        return;
      }
      String name = ECNamedCurveTable.getName(curve);
      throw malformed("the PEM key is on the curve " + (name == null ? curve.getId() : name)
          + "; only P-256 (ES256) and Ed25519 (EdDSA) are supported");
    }
    if (parameters == null || parameters instanceof org.bouncycastle.asn1.ASN1Null) {
      throw malformed("the PEM EC key does not name its curve");
    }
    throw malformed("the PEM EC key uses explicit curve parameters; re-export it with a named"
        + " curve (openssl ec -param_enc named_curve)");
  }

  private static KeyringException unsupported(ASN1ObjectIdentifier type) {
    String what;
    if (type.equals(PKCSObjectIdentifiers.rsaEncryption) || type.equals(PKCSObjectIdentifiers.id_RSASSA_PSS)) {
      what = "an RSA key";
    } else if (type.equals(EdECObjectIdentifiers.id_Ed448)) {
      what = "an Ed448 key";
    } else if (type.equals(EdECObjectIdentifiers.id_X25519) || type.equals(EdECObjectIdentifiers.id_X448)) {
      what = "an X25519/X448 key-agreement key";
    } else {
      what = "a key of type " + type.getId();
    }
    return malformed("the PEM document holds " + what
        + "; only P-256 (ES256) and Ed25519 (EdDSA) keys are supported");
  }

  private static String describe(Object o) {
    if (o instanceof org.bouncycastle.cert.X509CertificateHolder) {
      return "certificate (extract its key with openssl x509 -pubkey -noout)";
    }
    if (o instanceof ASN1Primitive) {
      return "bare ASN.1 object";
    }
    return o.getClass().getSimpleName();
  }

  private static KeyringException malformed(String message) {
    return new KeyringException(Reason.MALFORMED, message);
  }

  /** The kid rule of {@link TokenKey} (one rule, in core), checked first so a bad kid is the caller's error. */
  private static void checkKid(String kid) {
    KeyIds.check(kid);
  }
}
