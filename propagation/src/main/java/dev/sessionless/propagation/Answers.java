package dev.sessionless.propagation;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The answers this module's servlet and filters write themselves, in one form: a status, {@code
 * Cache-Control: no-store} and a one-line plain-text body that gives no details (those go to the
 * log). A {@code 503} ({@link #unavailable}) is a failure on this side, never the caller's; a
 * {@code 401} ({@link #unauthorized}) is the caller's missing or refused credential.
 */
final class Answers {
  private Answers() {}

  /**
   * {@code 503}: this side cannot answer now (a key set it cannot publish, a token it cannot
   * check), whatever the caller sent; {@code Retry-After: 5}, as the session filter's outage answer
   * says, since an outage on this side is expected to pass.
   */
  static void unavailable(HttpServletResponse response, String line) throws IOException {
    response.setHeader("Retry-After", "5");
    write(response, HttpServletResponse.SC_SERVICE_UNAVAILABLE, line);
  }

  /** {@code 401} with {@code challenge} as {@code WWW-Authenticate}, or none if it is null. */
  static void unauthorized(HttpServletResponse response, String challenge, String line) throws IOException {
    if (challenge != null) {
      response.setHeader("WWW-Authenticate", challenge);
    }
    write(response, HttpServletResponse.SC_UNAUTHORIZED, line);
  }

  private static void write(HttpServletResponse response, int status, String line) throws IOException {
    response.setStatus(status);
    response.setHeader("Cache-Control", "no-store");
    response.setContentType("text/plain;charset=UTF-8");
    response.getWriter().write(line + "\n");
  }
}
