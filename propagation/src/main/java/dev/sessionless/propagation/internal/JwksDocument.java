package dev.sessionless.propagation.internal;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.TokenKey;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Objects;

/**
 * The published JWKS of one key set, as the servlet ({@code JwksServlet}) and the WebFlux
 * handler ({@code JwksWebHandler}) serve it alike: the public keys only, a symmetric key refused,
 * a strong {@code ETag} (a SHA-256 of the document) and the {@code If-None-Match} rule.
 *
 * <p>Not exported. Immutable; {@link Current} is thread-safe.
 */
public final class JwksDocument {
  /** The JWK Set media type (RFC 7517 section 8.5.1). */
  public static final String MEDIA_TYPE = "application/jwk-set+json";

  private final KeySet set;
  private final byte[] body;
  private final String etag;

  private JwksDocument(KeySet set, byte[] body, String etag) {
    this.set = set;
    this.body = body;
    this.etag = etag;
  }

  /**
   * The document of {@code set}.
   *
   * @throws IllegalStateException if the set holds a symmetric key, whose secret would have to
   *     be published
   */
  public static JwksDocument publish(KeySet set) {
    for (TokenKey k : set.keys()) {
      if (k.algorithm().isSymmetric()) {
        throw new IllegalStateException("the key set holds the symmetric key '" + k.kid() + "' ("
            + k.algorithm().joseName() + "), whose secret would have to be published for others to verify: "
            + "sign internal tokens with " + Algorithm.ES256.joseName() + " or " + Algorithm.EDDSA.joseName()
            + " keys, and keep symmetric keys in a key set of their own that is never published");
      }
    }
    byte[] body = set.toPublicJwks().getBytes(StandardCharsets.UTF_8);
    byte[] hash;
    try {
      hash = MessageDigest.getInstance("SHA-256").digest(body);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JVM has no SHA-256", e);
    }
    String etag = '"' + Base64.getUrlEncoder().withoutPadding().encodeToString(hash) + '"';
    return new JwksDocument(set, body, etag);
  }

  /**
   * The {@code Cache-Control} value for documents verifiers may cache for {@code maxAge}.
   *
   * @throws IllegalArgumentException unless it is whole seconds from 0 to one day
   */
  public static String cacheControl(java.time.Duration maxAge) {
    Objects.requireNonNull(maxAge, "maxAge");
    if (maxAge.isNegative() || maxAge.getNano() != 0 || maxAge.compareTo(java.time.Duration.ofDays(1)) > 0) {
      throw new IllegalArgumentException("maxAge must be whole seconds from 0 to one day, got " + maxAge);
    }
    return "public, max-age=" + maxAge.getSeconds();
  }

  /** The document's bytes (a copy). */
  public byte[] body() {
    return body.clone();
  }

  /** The document's length in bytes. */
  public int length() {
    return body.length;
  }

  /** The strong ETag, quoted. */
  public String etag() {
    return etag;
  }

  /**
   * Whether If-None-Match field values (RFC 9110 section 13.1.2: weak comparison, or {@code *})
   * match this document.
   */
  public boolean matches(Iterable<String> fields) {
    if (fields == null) {
      return false;
    }
    String opaque = etag.substring(1, etag.length() - 1);
    for (String field : fields) {
      for (String tag : field.split(",", -1)) {
        String t = tag.trim();
        if (t.equals("*")) {
          return true;
        }
        if (t.startsWith("W/")) {
          t = t.substring(2);
        }
        if (t.length() == opaque.length() + 2 && t.charAt(0) == '"' && t.endsWith("\"")
            && t.regionMatches(1, opaque, 0, opaque.length())) {
          return true;
        }
      }
    }
    return false;
  }

  /** The ETag only. */
  @Override
  public String toString() {
    return "JwksDocument[" + etag + "]";
  }

  /**
   * The document of a live key source's current set, made once per set: a rotation shows up at
   * the next request, with no restart. Thread-safe.
   */
  public static final class Current {
    private final KeySource keys;
    private volatile JwksDocument document;

    /** The documents of {@code keys}. */
    public Current(KeySource keys) {
      this.keys = Objects.requireNonNull(keys, "keys");
    }

    /**
     * The document of the source's current set.
     *
     * @throws IllegalStateException if the set holds a symmetric key
     * @throws RuntimeException as the source does
     */
    public JwksDocument get() {
      KeySet set = keys.current();
      JwksDocument d = document;
      if (d != null && d.set == set) {
        return d;
      }
      d = publish(set);
      document = d;
      return d;
    }
  }
}
