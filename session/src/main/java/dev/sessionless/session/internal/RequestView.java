package dev.sessionless.session.internal;

import java.util.Enumeration;

/**
 * What the session engine reads of a request, whatever the container: the headers that carry
 * the token, and what decides the cookie's {@code Path} and {@code Secure}. An adapter
 * implements it over its own request type (the servlet filter over {@code HttpServletRequest},
 * the WebFlux adapter over {@code ServerHttpRequest}). Every method answers from memory: none
 * may block.
 */
public interface RequestView {
  /**
   * Every value of the request header {@code name} (case-insensitive), in order, one per header
   * line as received; empty (never {@code null}) if none.
   */
  Enumeration<String> requestHeaders(String name);

  /** The first value of the request header {@code name} (case-insensitive), or {@code null}. */
  String requestHeader(String name);

  /**
   * The application's context path ({@code ""} for the root), the cookie path when the
   * settings name none.
   */
  String contextPath();

  /**
   * Whether the request reached the application over TLS, as the container sees it (behind a
   * proxy, as the container was told to trust it): only consulted when {@code cookieSecure} is
   * off. Never judged from the {@code Host} header.
   */
  boolean secure();
}
