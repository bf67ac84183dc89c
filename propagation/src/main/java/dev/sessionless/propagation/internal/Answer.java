package dev.sessionless.propagation.internal;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One answer this module's servlet, filters and WebFlux handlers write themselves, in one form
 * for both stacks: a status, {@code Cache-Control: no-store}, a plain-text content type and a
 * one-line body that gives no details (those go to the log). A {@code 503} ({@link
 * #unavailable}) is a failure on this side, never the caller's, and says when to retry; a
 * {@code 401} ({@link #unauthorized}) is the caller's missing or refused credential.
 *
 * <p>Not exported. Immutable.
 */
public final class Answer {
  /** The {@code Retry-After} of a {@code 503}: an outage on this side is expected to pass. */
  public static final String RETRY_AFTER_SECONDS = "5";
  /** The content type of every answer's body. */
  public static final String CONTENT_TYPE = "text/plain;charset=UTF-8";

  private final int status;
  private final Map<String, String> headers;
  private final String body;

  private Answer(int status, Map<String, String> headers, String line) {
    this.status = status;
    headers.put("Cache-Control", "no-store");
    this.headers = Map.copyOf(headers);
    this.body = line + "\n";
  }

  /**
   * {@code 503}: this side cannot answer now (a key set it cannot publish, a token it cannot
   * check), whatever the caller sent; {@code Retry-After: 5}, as the session filter's outage
   * answer says.
   */
  public static Answer unavailable(String line) {
    Map<String, String> h = new LinkedHashMap<>();
    h.put("Retry-After", RETRY_AFTER_SECONDS);
    return new Answer(503, h, line);
  }

  /** {@code 401} with {@code challenge} as {@code WWW-Authenticate}, or none if it is null. */
  public static Answer unauthorized(String challenge, String line) {
    Map<String, String> h = new LinkedHashMap<>();
    if (challenge != null) {
      h.put("WWW-Authenticate", challenge);
    }
    return new Answer(401, h, line);
  }

  /** The status code. */
  public int status() {
    return status;
  }

  /** The headers to set, the content type apart ({@link #CONTENT_TYPE}). */
  public Map<String, String> headers() {
    return headers;
  }

  /** The body: the line and a line feed. */
  public String body() {
    return body;
  }

  /** The status and headers. */
  @Override
  public String toString() {
    return "Answer[" + status + " " + headers + "]";
  }
}
