package dev.sessionless.spring.boot;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;

/**
 * Answers a session attribute of a type not in {@code sessionless.attribute-types} (the
 * session filter's {@code IllegalArgumentException}, whose message names its servlet builder)
 * as what it is in a Boot application: a configuration error of this server, logged at ERROR
 * once per type with the Boot property and the value to add, answered {@code 500} with a one-line
 * body and no stack trace. Every other exception is left to the resolvers after it.
 */
final class AttributeTypeResolver implements HandlerExceptionResolver, Ordered {
  private static final Log LOG = LogFactory.getLog(AttributeTypeResolver.class);
  /** The session filter's message for an unregistered type (servlet-filter's AttributeCodec). */
  private static final Pattern UNREGISTERED = Pattern.compile(
      "session attribute '(.{0,200}?)' (?:has type|holds a value of type) ([\\w.$]{1,300})[ ,].*attributeTypes",
      Pattern.DOTALL);
  private static final int MAX_TYPES_LOGGED = 256;
  private final Set<String> logged = ConcurrentHashMap.newKeySet();

  /** Used by the auto-configuration. */
  public AttributeTypeResolver() {}

  @Override
  public ModelAndView resolveException(HttpServletRequest request, HttpServletResponse response, Object handler,
      Exception ex) {
    String message = ex instanceof IllegalArgumentException ? ex.getMessage() : null;
    Matcher m = message == null ? null : UNREGISTERED.matcher(message);
    if (m == null || !m.find()) {
      return null;
    }
    String type = m.group(2);
    if (logged.size() < MAX_TYPES_LOGGED && logged.add(type)) {
      LOG.error("session attribute '" + m.group(1) + "' has type " + type + ", which sessionless.attribute-types does"
          + " not list: add it (sessionless.attribute-types=" + type + ", comma-separated beside the others), or"
          + " store JDK value types. Requests that store it answer 500 until then (logged once per type)", ex);
    }
    if (!response.isCommitted()) {
      try {
        response.resetBuffer();
        response.setStatus(HttpServletResponse.SC_INTERNAL_SERVER_ERROR);
        response.setHeader("Cache-Control", "no-store");
        response.setContentType("text/plain;charset=UTF-8");
        response.getWriter().write("the server cannot keep this value in the session: its log says what to configure\n");
      } catch (IOException e) {
        LOG.debug("could not write the answer", e);
      }
    }
    return new ModelAndView();
  }

  /** First: before Spring MVC's own resolvers. */
  @Override
  public int getOrder() {
    return Ordered.HIGHEST_PRECEDENCE;
  }
}
