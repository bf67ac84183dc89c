package dev.sessionless.devicebinding;

import dev.sessionless.devicebinding.internal.ProofAlgorithms;
import dev.sessionless.devicebinding.internal.StructuredFields;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The DBSC header values, written and read in the draft's structured-field syntax (RFC 9651):
 * {@code Secure-Session-Registration} and {@code Secure-Session-Challenge} on responses, {@code
 * Secure-Session-Response} and {@code Sec-Secure-Session-Id} on requests. Names are in {@link
 * DbscNames}.
 */
public final class DbscHeaders {
  private DbscHeaders() {}

  /** A builder of one {@code Secure-Session-Registration} list member. */
  public static Registration registration() {
    return new Registration();
  }

  /**
   * The {@code Secure-Session-Challenge} value for one session: {@code "<challenge>";id="<session>"}.
   *
   * @throws IllegalArgumentException if either holds characters outside printable ASCII
   */
  public static String challenge(String challenge, String sessionId) {
    Objects.requireNonNull(challenge, "challenge");
    Objects.requireNonNull(sessionId, "sessionId");
    return StructuredFields.string(challenge) + ";" + DbscNames.PARAM_ID + "=" + StructuredFields.string(sessionId);
  }

  /** The longest request header value read, in characters: the largest proof {@link DeviceProof} accepts, quoted. */
  public static final int MAX_HEADER_LENGTH = 65536 + 2;

  /**
   * The proof in a {@code Secure-Session-Response} header value: an sf-string (parameters
   * ignored, as the draft says), or the bare compact JWS that Chromium sends. {@link DeviceProof}
   * then applies its own, smaller limit.
   *
   * @throws DeviceBindingException {@code TOO_LARGE} over {@link #MAX_HEADER_LENGTH} characters
   *     (before reading any); {@code MALFORMED} if the value is neither an sf-string nor bare
   *     base64url, dots and sf-token characters
   */
  public static String readProof(String headerValue) {
    return read(headerValue, DbscNames.RESPONSE_HEADER);
  }

  /**
   * The session identifier in a {@code Sec-Secure-Session-Id} header value: an sf-string
   * (parameters ignored), or bare as Chromium sends it.
   *
   * @throws DeviceBindingException {@code TOO_LARGE} over {@link #MAX_HEADER_LENGTH} characters;
   *     {@code MALFORMED} if the value is neither an sf-string nor bare base64url and sf-token
   *     characters
   */
  public static String readSessionId(String headerValue) {
    return read(headerValue, DbscNames.SESSION_ID_HEADER);
  }

  private static String read(String headerValue, String name) {
    Objects.requireNonNull(headerValue, "headerValue");
    if (headerValue.length() > MAX_HEADER_LENGTH) {
      throw new DeviceBindingException(DeviceBindingException.Reason.TOO_LARGE, name + " is longer than "
          + MAX_HEADER_LENGTH + " characters");
    }
    // Chromium (156) sends both request values bare, not as the draft's sf-string: a bare value
    // made only of the characters of a JWS or of a session id is taken as it is.
    String bare = headerValue.strip();
    if (BARE.matcher(bare).matches()) {
      return bare;
    }
    return StructuredFields.parseString(headerValue, name);
  }

  /** A bare request header value: base64url, JWS dots, and the other sf-token characters a session id may use. */
  private static final Pattern BARE = Pattern.compile("[A-Za-z0-9._~+/=-]+");

  /**
   * One member of a {@code Secure-Session-Registration} list: the inner list of accepted
   * algorithms with its {@code path}, {@code challenge} and optional {@code authorization}, e.g.
   * {@code (ES256 RS256);path="reg";challenge="cv"}. Several members are joined with {@code ", "}.
   */
  public static final class Registration {
    private final Set<String> algorithms = new LinkedHashSet<>();
    private String path;
    private String challenge;
    private String authorization;

    private Registration() {}

    /**
     * The accepted algorithms in order of preference: {@code ES256} and/or {@code RS256}; both
     * if not set. ({@code none} is in the draft for federated sessions and not offered here.)
     */
    public Registration algorithms(String first, String... more) {
      Set<String> all = ProofAlgorithms.checked(first, more);
      algorithms.clear();
      algorithms.addAll(all);
      return this;
    }

    /** The registration endpoint: a path relative to the response's URL, or a full URL. Required. */
    public Registration path(String path) {
      this.path = Objects.requireNonNull(path, "path");
      return this;
    }

    /** The challenge the proof must sign ({@link Challenges#issue}). Required. */
    public Registration challenge(String challenge) {
      this.challenge = Objects.requireNonNull(challenge, "challenge");
      return this;
    }

    /** A string the browser copies into the proof's {@code authorization} claim; none if not set. */
    public Registration authorization(String authorization) {
      this.authorization = Objects.requireNonNull(authorization, "authorization");
      return this;
    }

    /**
     * The list member's text.
     *
     * @throws IllegalStateException if path or challenge is missing
     * @throws IllegalArgumentException if a value holds characters outside printable ASCII
     */
    public String build() {
      if (path == null || path.isEmpty()) {
        throw new IllegalStateException("the registration path is required: where the browser posts its proof");
      }
      if (challenge == null) {
        throw new IllegalStateException("a challenge is required: issue one with Challenges.issue(REGISTRATION, ..)");
      }
      List<String> offered = algorithms.isEmpty() ? List.of(DbscNames.ES256, DbscNames.RS256) : List.copyOf(algorithms);
      StringBuilder out = new StringBuilder("(").append(String.join(" ", offered));
      out.append(");").append(DbscNames.PARAM_PATH).append('=').append(StructuredFields.string(path));
      out.append(';').append(DbscNames.PARAM_CHALLENGE).append('=').append(StructuredFields.string(challenge));
      if (authorization != null) {
        out.append(';').append(DbscNames.PARAM_AUTHORIZATION).append('=')
            .append(StructuredFields.string(authorization));
      }
      return out.toString();
    }
  }
}
