package dev.sessionless.servlet.it;

import jakarta.servlet.ServletContainerInitializer;
import org.eclipse.jetty.ee11.servlet.ErrorPageErrorHandler;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;

/**
 * Embedded Jetty 12.1 with its ee11 (Servlet 6.1) environment: the same setup as {@link
 * JettyContainerFactory}, from the ee11 packages. Not merged with it: the ee10 and ee11 {@code
 * ServletContextHandler} and {@code ErrorPageErrorHandler} are distinct classes with no common
 * type for these calls, and the ee11 jars are not on servlet-filter's class path; the server
 * around them is shared ({@link JettyServers}).
 */
public final class JettyEe11ContainerFactory implements ContainerFactory {
  @Override
  public String name() {
    return "jetty-ee11";
  }

  @Override
  public Container start(ServletContainerInitializer setup) {
    ServletContextHandler context = new ServletContextHandler("/");
    context.addServletContainerInitializer(setup);
    ErrorPageErrorHandler errors = new ErrorPageErrorHandler();
    errors.addErrorPage(ErrorPageErrorHandler.GLOBAL_ERROR_PAGE, "/error");
    context.setErrorHandler(errors);
    return JettyServers.start(context, "ee11");
  }
}
