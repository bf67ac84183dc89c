package dev.sessionless.servlet.it;

import jakarta.servlet.ServletContainerInitializer;
import org.eclipse.jetty.ee10.servlet.ErrorPageErrorHandler;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;

/** Embedded Jetty 12 with its ee10 (Servlet 6.0) environment; Jetty 12.0 or 12.1. */
public final class JettyContainerFactory implements ContainerFactory {
  @Override
  public String name() {
    return "jetty-ee10";
  }

  @Override
  public Container start(ServletContainerInitializer setup) {
    ServletContextHandler context = new ServletContextHandler("/");
    context.addServletContainerInitializer(setup);
    ErrorPageErrorHandler errors = new ErrorPageErrorHandler();
    errors.addErrorPage(ErrorPageErrorHandler.GLOBAL_ERROR_PAGE, "/error");
    context.setErrorHandler(errors);
    return JettyServers.start(context, "ee10");
  }
}
