package dev.sessionless.session.internal;

import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

/** A request held in memory, as an adapter's {@link RequestView} shows one: its Cookie headers. */
class MapRequest implements RequestView {
  private final List<String> cookieHeaders;

  MapRequest(List<String> cookieHeaders) {
    this.cookieHeaders = cookieHeaders;
  }

  /** A request with no cookies. */
  static MapRequest none() {
    return new MapRequest(List.of());
  }

  @Override
  public Enumeration<String> requestHeaders(String name) {
    return Collections.enumeration("Cookie".equalsIgnoreCase(name) ? cookieHeaders : List.of());
  }

  @Override
  public String requestHeader(String name) {
    List<String> all = Collections.list(requestHeaders(name));
    return all.isEmpty() ? null : all.get(0);
  }

  @Override
  public String contextPath() {
    return "";
  }

  @Override
  public boolean secure() {
    return true;
  }
}
