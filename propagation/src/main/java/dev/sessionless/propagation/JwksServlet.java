package dev.sessionless.propagation;

import dev.sessionless.core.KeySource;
import dev.sessionless.propagation.internal.JwksDocument;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.Collections;
import java.util.Objects;

/**
 * Publishes an issuer's public keys as a JWKS (RFC 7517) for the services that verify its
 * internal tokens, such as the keyring's HTTP source ({@code Keyring.builder().jwksUrl(...)}).
 * A plain servlet: it needs no session filter.
 *
 * <pre>{@code
 * JwksServlet jwks = JwksServlet.builder().keys(issuerKeys).maxAge(Duration.ofMinutes(5)).build();
 * context.addServlet(new ServletHolder(jwks), "/.well-known/jwks.json");   // Jetty, say
 * }</pre>
 *
 * <p>Every key of the source's current set is published with its lifecycle (pending, signing
 * and retired keys alike, so verifiers know a key before it signs and after it stops), and only
 * its public part: never a private or secret member. A key set holding a symmetric key
 * (HMAC or AES), whose secret is all there is and must never be published, is refused: at
 * {@link Builder#build()}, and, should a live source gain one later, at every request, which then
 * gets {@code 503} while the error is logged.
 *
 * <p>Responses carry a strong {@code ETag} (a SHA-256 of the document), {@code Cache-Control:
 * public, max-age} (keep it shorter than the lead time with which new keys are published before
 * they sign), and {@code If-None-Match} requests for the current document get {@code 304}.
 * {@code GET} and {@code HEAD} only. Thread-safe.
 */
public final class JwksServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private static final System.Logger LOG = System.getLogger(JwksServlet.class.getName());
  /** The JWK Set media type (RFC 7517 section 8.5.1). */
  static final String MEDIA_TYPE = JwksDocument.MEDIA_TYPE;

  private final transient JwksDocument.Current documents;
  private final String cacheControl;

  private JwksServlet(Builder b) {
    this.documents = new JwksDocument.Current(b.keys);
    this.cacheControl = JwksDocument.cacheControl(b.maxAge);
  }

  /** A builder; {@code keys} is required. */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    JwksDocument d;
    try {
      d = documents.get();
    } catch (RuntimeException e) {
      // A broken deployment, not the caller's fault: say so without details, and log it.
      LOG.log(System.Logger.Level.ERROR, "the JWKS endpoint cannot publish the current key set", e);
      Answers.unavailable(resp, "the key set cannot be published now");
      return;
    }
    resp.setHeader("ETag", d.etag());
    resp.setHeader("Cache-Control", cacheControl);
    java.util.Enumeration<String> fields = req.getHeaders("If-None-Match");
    if (fields != null && d.matches(Collections.list(fields))) {
      resp.setStatus(HttpServletResponse.SC_NOT_MODIFIED);
      return;
    }
    resp.setContentType(MEDIA_TYPE);
    resp.setContentLength(d.length());
    resp.getOutputStream().write(d.body());
  }

  /** Shows the cache policy only. */
  @Override
  public String toString() {
    return "JwksServlet[" + cacheControl + "]";
  }

  /** Builds a {@link JwksServlet}, checking the key set at {@link #build()}. Not thread-safe. */
  public static final class Builder {
    private KeySource keys;
    private Duration maxAge = Duration.ofMinutes(5);

    private Builder() {}

    /** The issuer's keys: a fixed set or a live source such as a keyring. Required. */
    public Builder keys(KeySource keys) {
      this.keys = Objects.requireNonNull(keys, "keys");
      return this;
    }

    /**
     * How long verifiers may cache the document ({@code Cache-Control: max-age}); 5 minutes if
     * not set. Keep it shorter than the lead time between publishing a key and signing with it.
     * Whole seconds, from 0 to one day.
     */
    public Builder maxAge(Duration maxAge) {
      JwksDocument.cacheControl(maxAge);
      this.maxAge = maxAge;
      return this;
    }

    /**
     * Checks the configuration and the current key set, and builds the servlet.
     *
     * @throws IllegalStateException if no keys were given, or the key set holds a symmetric
     *     (HMAC or AES) key, which cannot be published
     */
    public JwksServlet build() {
      if (keys == null) {
        throw new IllegalStateException("keys are required: the issuer's key set or keyring");
      }
      JwksDocument.publish(keys.current());
      return new JwksServlet(this);
    }
  }
}
