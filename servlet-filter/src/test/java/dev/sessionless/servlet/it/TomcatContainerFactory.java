package dev.sessionless.servlet.it;

import jakarta.servlet.ServletContainerInitializer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.catalina.core.StandardContext;
import org.apache.catalina.startup.Tomcat;
import org.apache.catalina.util.ServerInfo;
import org.apache.catalina.valves.RemoteIpValve;
import org.apache.tomcat.util.descriptor.web.ErrorPage;

/** Embedded Tomcat (10.1 for Servlet 6.0, 11 for 6.1), context path "". */
public final class TomcatContainerFactory implements ContainerFactory {
  @Override
  public String name() {
    return "tomcat";
  }

  @Override
  public Container start(ServletContainerInitializer setup) {
    try {
      Path base = Files.createTempDirectory("tomcat");
      Tomcat tomcat = new Tomcat();
      tomcat.setBaseDir(base.toString());
      tomcat.setHostname("127.0.0.1");
      tomcat.setPort(0);
      tomcat.getConnector().setProperty("address", "127.0.0.1");
      tomcat.getConnector().setProperty("maxHttpHeaderSize", String.valueOf(Container.HEADER_SIZE));
      StandardContext context = (StandardContext) tomcat.addContext("", base.toString());
      // Embedded and short-lived: skip the leak detectors that need --add-opens.
      context.setClearReferencesThreadLocals(false);
      try { // Tomcat 10.1 only: Tomcat 11 dropped this detector
        StandardContext.class.getMethod("setClearReferencesObjectStreamClassCaches", boolean.class)
            .invoke(context, false);
      } catch (NoSuchMethodException absent) {
        // nothing to turn off
      }
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
      String name = "tomcat-" + ServerInfo.getServerNumber();
      return new Container() {
        @Override
        public int port() {
          return port;
        }

        @Override
        public String name() {
          return name;
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
