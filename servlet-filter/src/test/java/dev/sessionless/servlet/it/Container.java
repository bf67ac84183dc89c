package dev.sessionless.servlet.it;

import jakarta.servlet.ServletContainerInitializer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.catalina.core.StandardContext;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.descriptor.web.ErrorPage;
import org.eclipse.jetty.ee10.servlet.ErrorPageErrorHandler;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.apache.catalina.valves.RemoteIpValve;
import org.eclipse.jetty.server.ForwardedRequestCustomizer;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * A real servlet container on a loopback port, set up by a {@link ServletContainerInitializer}
 * (which adds filters and servlets through the standard {@code ServletContext} API) with one
 * global error page at {@code /error}, trusting {@code X-Forwarded-Proto} from loopback (as
 * behind a TLS-terminating proxy). Reusable for multi-node tests and benchmarks.
 */
public abstract class Container implements AutoCloseable {
  /**
   * Request and response header limit: both containers default to 8 KiB, less than a token
   * split across several 4 KiB cookies needs.
   */
  public static final int HEADER_SIZE = 32 * 1024;

  /** The port it listens on. */
  public abstract int port();

  /** The container's name, for test display. */
  public abstract String name();

  /** Stops it. */
  public abstract void stop();

  @Override
  public void close() {
    stop();
  }

  /** Embedded Jetty 12 (ee10) on port 0, context path "/". */
  public static Container jetty(ServletContainerInitializer setup) {
    try {
      Server server = new Server();
      HttpConfiguration http = new HttpConfiguration();
      http.setRequestHeaderSize(HEADER_SIZE);
      http.setResponseHeaderSize(HEADER_SIZE);
      http.addCustomizer(new ForwardedRequestCustomizer());
      ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
      connector.setHost("127.0.0.1");
      connector.setPort(0);
      server.addConnector(connector);
      ServletContextHandler context = new ServletContextHandler("/");
      context.addServletContainerInitializer(setup);
      ErrorPageErrorHandler errors = new ErrorPageErrorHandler();
      errors.addErrorPage(ErrorPageErrorHandler.GLOBAL_ERROR_PAGE, "/error");
      context.setErrorHandler(errors);
      server.setHandler(context);
      server.start();
      int port = connector.getLocalPort();
      return new Container() {
        @Override
        public int port() {
          return port;
        }

        @Override
        public String name() {
          return "jetty";
        }

        @Override
        public void stop() {
          try {
            server.stop();
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        }
      };
    } catch (Exception e) {
      throw new IllegalStateException("Jetty did not start", e);
    }
  }

  /** Embedded Tomcat 10.1 on port 0, context path "". */
  public static Container tomcat(ServletContainerInitializer setup) {
    try {
      Path base = Files.createTempDirectory("tomcat");
      Tomcat tomcat = new Tomcat();
      tomcat.setBaseDir(base.toString());
      tomcat.setHostname("127.0.0.1");
      tomcat.setPort(0);
      tomcat.getConnector().setProperty("address", "127.0.0.1");
      tomcat.getConnector().setProperty("maxHttpHeaderSize", String.valueOf(HEADER_SIZE));
      StandardContext context = (StandardContext) tomcat.addContext("", base.toString());
      // Embedded and short-lived: skip the leak detectors that need --add-opens.
      context.setClearReferencesObjectStreamClassCaches(false);
      context.setClearReferencesThreadLocals(false);
      context.setClearReferencesRmiTargets(false);
      context.addServletContainerInitializer(setup, null);
      RemoteIpValve proxy = new RemoteIpValve();
      proxy.setProtocolHeader("X-Forwarded-Proto");
      context.getPipeline().addValve(proxy);
      ErrorPage page = new ErrorPage();
      page.setLocation("/error");
      context.addErrorPage(page);
      tomcat.start();
      int port = tomcat.getConnector().getLocalPort();
      return new Container() {
        @Override
        public int port() {
          return port;
        }

        @Override
        public String name() {
          return "tomcat";
        }

        @Override
        public void stop() {
          try {
            tomcat.stop();
            tomcat.destroy();
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        }
      };
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (Exception e) {
      throw new IllegalStateException("Tomcat did not start", e);
    }
  }
}
