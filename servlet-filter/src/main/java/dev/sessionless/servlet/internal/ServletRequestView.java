package dev.sessionless.servlet.internal;

import dev.sessionless.session.internal.RequestView;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Collections;
import java.util.Enumeration;

/** A servlet request as the session engine reads it. */
final class ServletRequestView implements RequestView {
  private final HttpServletRequest request;

  ServletRequestView(HttpServletRequest request) {
    this.request = request;
  }

  @Override
  public Enumeration<String> requestHeaders(String name) {
    Enumeration<String> values = request.getHeaders(name);
    return values == null ? Collections.emptyEnumeration() : values;
  }

  @Override
  public String requestHeader(String name) {
    return request.getHeader(name);
  }

  @Override
  public String contextPath() {
    return request.getContextPath();
  }

  @Override
  public boolean secure() {
    return request.isSecure();
  }
}
