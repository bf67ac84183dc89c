package dev.sessionless.propagation;

import dev.sessionless.propagation.internal.Answer;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The answers this module's servlet and filters write themselves, in the one form of {@link
 * Answer} (shared with the WebFlux side): a status, {@code Cache-Control: no-store} and a
 * one-line plain-text body that gives no details (those go to the log). A {@code 503} ({@link
 * #unavailable}) is a failure on this side, never the caller's; a {@code 401} ({@link
 * #unauthorized}) is the caller's missing or refused credential.
 */
final class Answers {
  private Answers() {}

  /**
   * {@code 503}: this side cannot answer now (a key set it cannot publish, a token it cannot
   * check), whatever the caller sent; {@code Retry-After: 5} ({@link Answer#unavailable}).
   */
  static void unavailable(HttpServletResponse response, String line) throws IOException {
    write(response, Answer.unavailable(line));
  }

  /** {@code 401} with {@code challenge} as {@code WWW-Authenticate}, or none if it is null. */
  static void unauthorized(HttpServletResponse response, String challenge, String line) throws IOException {
    write(response, Answer.unauthorized(challenge, line));
  }

  /** Writes {@code answer}: its status, headers and body. */
  static void write(HttpServletResponse response, Answer answer) throws IOException {
    response.setStatus(answer.status());
    answer.headers().forEach(response::setHeader);
    response.setContentType(Answer.CONTENT_TYPE);
    response.getWriter().write(answer.body());
  }
}
