package dev.sessionless.propagation;

import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.ServletContainerInitializer;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.catalina.core.StandardContext;
import org.apache.catalina.startup.Tomcat;
import org.apache.catalina.util.ServerInfo;
import org.junit.jupiter.api.BeforeAll;

/**
 * The receiving filter's journeys in a real embedded Tomcat 11 (Servlet 6.1) on loopback. Runs
 * in its own surefire execution, with Tomcat's Servlet 6.1 API on the class path instead of the
 * 6.0 API the other tests use (see this module's pom).
 */
class InternalTokenFilterTomcat11Test extends InternalTokenFilterJourneys {
  @BeforeAll
  static void reallyTomcat11() {
    assertTrue(ServerInfo.getServerNumber().startsWith("11."), "expected Tomcat 11, found " + ServerInfo.getServerInfo());
  }

  @Override
  LoopbackContainer start(ServletContainerInitializer setup) throws Exception {
    Path base = Files.createTempDirectory("tomcat");
    Tomcat tomcat = new Tomcat();
    tomcat.setBaseDir(base.toString());
    tomcat.setHostname("127.0.0.1");
    tomcat.setPort(0);
    tomcat.getConnector().setProperty("address", "127.0.0.1");
    StandardContext context = (StandardContext) tomcat.addContext("", base.toString());
    // Embedded and short-lived: skip the leak detectors that need --add-opens.
    context.setClearReferencesThreadLocals(false);
    context.setClearReferencesRmiTargets(false);
    context.addServletContainerInitializer(setup, null);
    tomcat.start();
    URI root = URI.create("http://127.0.0.1:" + tomcat.getConnector().getLocalPort() + "/");
    return new LoopbackContainer() {
      @Override
      public URI root() {
        return root;
      }

      @Override
      public void close() throws Exception {
        tomcat.stop();
        tomcat.destroy();
      }
    };
  }
}
