package dev.sessionless.spring.boot;

import dev.sessionless.propagation.JwksServlet;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.util.Collections;
import java.util.Enumeration;
import java.util.Objects;

/**
 * Serves the issuer's JWKS ({@link JwksServlet}) at one path, as a filter placed ahead of every
 * other one: the session filter, the internal token filter and Spring Security's chain never see
 * these requests. Public keys need no session and no authentication, and serving them here adds no
 * rule to the application's security chains, which could change what its other paths allow.
 * Every other request passes on untouched.
 */
final class JwksEndpointFilter implements Filter {
  private final JwksServlet servlet;
  private final String path;

  /**
   * A filter answering {@code path} (context-relative, starting with {@code /}) with {@code servlet}.
   *
   * @param servlet the JWKS servlet; initialised with this filter
   * @param path the endpoint's path
   */
  public JwksEndpointFilter(JwksServlet servlet, String path) {
    this.servlet = Objects.requireNonNull(servlet, "servlet");
    this.path = Objects.requireNonNull(path, "path");
  }

  @Override
  public void init(FilterConfig config) throws ServletException {
    ServletContext context = config.getServletContext();
    servlet.init(new ServletConfig() {
      @Override
      public String getServletName() {
        return "sessionlessJwks";
      }

      @Override
      public ServletContext getServletContext() {
        return context;
      }

      @Override
      public String getInitParameter(String name) {
        return null;
      }

      @Override
      public Enumeration<String> getInitParameterNames() {
        return Collections.emptyEnumeration();
      }
    });
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    if (request instanceof HttpServletRequest http
        && path.equals(http.getRequestURI().substring(http.getContextPath().length()))) {
      servlet.service(request, response); // GET and HEAD; other methods 405
      return;
    }
    chain.doFilter(request, response);
  }

  @Override
  public void destroy() {
    servlet.destroy();
  }

  /** The path only: nothing about the keys. */
  @Override
  public String toString() {
    return "JwksEndpointFilter[" + path + "]";
  }
}
