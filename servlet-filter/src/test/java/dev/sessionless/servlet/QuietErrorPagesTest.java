package dev.sessionless.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.testing.ReadmeBlocks;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.catalina.Context;
import org.apache.catalina.startup.Tomcat;
import org.apache.catalina.valves.ErrorReportValve;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.junit.jupiter.api.Test;

/**
 * The README's "Keep the container's error pages quiet" settings, proved in each container: a
 * request the container itself refuses (before any filter runs) is answered without a stack
 * trace, an exception message or the server's version, while the default page shows them.
 */
class QuietErrorPagesTest {
  /** A request line with a character no URI may hold: both containers answer 400 themselves. */
  static final String MALFORMED = "GET /shop/a|b{c} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";

  private static String send(int port, String request) throws IOException {
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
      s.setSoTimeout(30_000);
      s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
      return new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
    }
  }

  private static SessionlessFilter filter() {
    return SessionlessFilter.builder().keys(KeySet.of(TokenKey.generate("k", Algorithm.DIR_A256GCM)))
        .issuer("i").audience("a").build();
  }

  private static String tomcat(boolean quiet) throws Exception {
    Tomcat tomcat = new Tomcat();
    Path base = Files.createTempDirectory("tomcat-quiet");
    tomcat.setBaseDir(base.toString());
    tomcat.setPort(0);
    tomcat.getConnector().setProperty("address", "127.0.0.1");
    if (quiet) {
      // quiet-tomcat:start
      ErrorReportValve quietErrors = new ErrorReportValve();
      quietErrors.setShowReport(false);      // no exception, message or stack trace
      quietErrors.setShowServerInfo(false);  // no "Apache Tomcat/10.1.x"
      tomcat.getHost().getPipeline().addValve(quietErrors);
      // quiet-tomcat:end
    }
    Context ctx = tomcat.addContext("/shop", base.toString());
    ctx.addServletContainerInitializer((c, sc) -> sc.addFilter("sessionless", filter())
        .addMappingForUrlPatterns(null, false, "/*"), null);
    tomcat.start();
    try {
      return send(tomcat.getConnector().getLocalPort(), MALFORMED);
    } finally {
      tomcat.stop();
      tomcat.destroy();
    }
  }

  private static String jetty(boolean quiet) throws Exception {
    Server server = new Server();
    HttpConfiguration http = new HttpConfiguration();
    if (quiet) {
      // quiet-jetty:start
      http.setSendServerVersion(false);          // no "Server: Jetty(12.x)" header
      ErrorHandler quietErrors = new ErrorHandler();
      quietErrors.setShowStacks(false);          // no stack trace
      quietErrors.setShowCauses(false);          // no exception causes
      quietErrors.setShowMessageInTitle(false);  // no exception message in the page title
      server.setErrorHandler(quietErrors);
      // quiet-jetty:end
    }
    ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler("/shop");
    context.addServletContainerInitializer((c, sc) -> sc.addFilter("sessionless", filter())
        .addMappingForUrlPatterns(null, false, "/*"));
    server.setHandler(context);
    server.start();
    try {
      return send(connector.getLocalPort(), MALFORMED);
    } finally {
      server.stop();
    }
  }

  /** A 400 without a stack trace, an exception's name or the server's name and version. */
  private static void assertQuiet(String response, String... moreLeaks) {
    assertTrue(response.startsWith("HTTP/1.1 400"), response);
    String lower = response.toLowerCase();
    List<String> leaks = new java.util.ArrayList<>(List.of("exception", "\tat ", "at org.", "tomcat", "jetty"));
    leaks.addAll(List.of(moreLeaks));
    for (String leak : leaks) {
      assertFalse(lower.contains(leak), "'" + leak + "' in\n" + response);
    }
  }

  @Test
  void tomcatDefaultErrorPageLeaksAndTheDocumentedValveSettingsKeepItQuiet() throws Exception {
    String loud = tomcat(false);
    assertTrue(loud.startsWith("HTTP/1.1 400"), loud);
    assertTrue(loud.contains("Apache Tomcat/"), "the default page names the server version:\n" + loud);
    assertTrue(loud.contains("Invalid character found"), "and the exception's message:\n" + loud);
    assertQuiet(tomcat(true), "invalid character");
  }

  @Test
  void jettyDefaultErrorPageLeaksAndTheDocumentedErrorHandlerSettingsKeepItQuiet() throws Exception {
    String loud = jetty(false);
    assertTrue(loud.startsWith("HTTP/1.1 400"), loud);
    assertTrue(loud.contains("Server: Jetty("), "the default response names the server version:\n" + loud);
    assertQuiet(jetty(true));
  }

  @Test
  void readmeShowsExactlyTheSettingsThisTestProves() throws IOException {
    Path self = Path.of("src/test/java/dev/sessionless/servlet/QuietErrorPagesTest.java");
    for (String block : List.of("quiet-tomcat", "quiet-jetty")) {
      List<String> shown = ReadmeBlocks.markdown(Path.of("README.md"), block);
      assertFalse(shown.isEmpty(), "README.md has no " + block + " block");
      assertEquals(ReadmeBlocks.java(self, block), shown, "README.md drifted from " + block);
    }
  }
}
