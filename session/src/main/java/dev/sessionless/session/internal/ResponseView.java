package dev.sessionless.session.internal;

import java.util.Collection;

/**
 * What the session engine writes to a response, whatever the container: the {@code Set-Cookie}
 * headers (or the token header) and whether it is too late to. An adapter implements it over its
 * own response type; the methods are named apart from {@code HttpServletResponse}'s so that a
 * response wrapper may implement both without one overriding the other. Every method works on
 * headers in memory: none may block.
 */
public interface ResponseView {
  /** Whether the response's headers have gone out (nothing written now would reach the client). */
  boolean committed();

  /** Adds a value of the response header {@code name}, keeping the ones already there. */
  void addResponseHeader(String name, String value);

  /** Sets the response header {@code name} to {@code value} alone, replacing any values it had. */
  void setResponseHeader(String name, String value);

  /** The first value of the response header {@code name}, or {@code null}. */
  String responseHeader(String name);

  /** Every value of the response header {@code name}, in order; empty if none. */
  Collection<String> responseHeaders(String name);

  /** Whether the response has a header {@code name}. */
  boolean hasResponseHeader(String name);
}
