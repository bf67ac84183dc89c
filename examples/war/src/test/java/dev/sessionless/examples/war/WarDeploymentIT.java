package dev.sessionless.examples.war;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.testing.ReadmeBlocks;
import java.io.IOException;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.HttpCookie;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.startup.Tomcat;
import org.apache.catalina.util.ServerInfo;
import org.apache.tomcat.util.scan.StandardJarScanner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The WAR Maven built ({@code target/shop.war}: the servlet, {@code web.xml} and {@code
 * WEB-INF/lib}), deployed as it is into two real Tomcat 11 servers that share only a key file;
 * every request goes to the other server than the one before. No code wires the filter: {@code
 * web.xml} names it and its init parameters, and Tomcat replaces {@code ${shop.keys.file}} with
 * the system property this test sets, as {@code CATALINA_OPTS} would.
 */
class WarDeploymentIT {
  @TempDir
  static Path dir;
  private static Tomcat one;
  private static Tomcat two;
  private static int portOne;
  private static int portTwo;

  @BeforeAll
  static void deployTheBuiltWarIntoTwoTomcats() throws Exception {
    Path keys = dir.resolve("session-keys.jwks");
    Files.writeString(keys, KeySet.of(TokenKey.generate("2026-11", Algorithm.DIR_A256GCM)).toJwksWithSecrets());
    System.setProperty("shop.keys.file", keys.toString());
    Path war = Path.of("target", "shop.war").toAbsolutePath();
    assertTrue(Files.isRegularFile(war), "mvn package builds " + war);
    one = tomcat(war, "one");
    two = tomcat(war, "two");
    portOne = one.getConnector().getLocalPort();
    portTwo = two.getConnector().getLocalPort();
  }

  private static Tomcat tomcat(Path war, String name) throws Exception {
    Path base = Files.createDirectories(dir.resolve(name));
    Tomcat tomcat = new Tomcat();
    tomcat.setBaseDir(base.toString());
    tomcat.getHost().setAppBase(Files.createDirectories(base.resolve("webapps")).toString());
    tomcat.setHostname("127.0.0.1");
    tomcat.setPort(0);
    tomcat.getConnector().setProperty("address", "127.0.0.1");
    tomcat.setAddDefaultWebXmlToWebapp(false); // no JSP engine here; the WAR's web.xml is all there is
    Context context = tomcat.addWebapp("/shop", war.toString());
    // The test JVM's class path is not the server's: Tomcat scans only the WAR's own jars.
    ((StandardJarScanner) context.getJarScanner()).setScanClassPath(false);
    tomcat.start();
    assertEquals(LifecycleState.STARTED, context.getState(), "the WAR deployed (the filter's init passed)");
    return tomcat;
  }

  @AfterAll
  static void stop() throws Exception {
    for (Tomcat t : new Tomcat[] {one, two}) {
      if (t != null) {
        t.stop();
        t.destroy();
      }
    }
    System.clearProperty("shop.keys.file");
  }

  @Test
  void theWarRunsInTomcat11() {
    assertTrue(ServerInfo.getServerNumber().startsWith("11."), ServerInfo.getServerNumber());
  }

  @Test
  void aCartBuiltAcrossTwoTomcatsSharingOnlyAKeyFileSurvivesRoundRobin() throws Exception {
    Client browser = new Client();
    assertEquals("[] -", browser.get(portOne), "no session before the first change");
    assertEquals("[mug]", browser.post(portTwo, "mug"));
    assertEquals("[mug, tea]", browser.post(portOne, "tea"), "the other Tomcat continues the session");
    String onOne = browser.get(portOne);
    String onTwo = browser.get(portTwo);
    assertTrue(onOne.startsWith("[mug, tea] "), onOne);
    assertEquals(onOne, onTwo, "both servers see the same cart and the same session id");

    assertEquals("bye", browser.delete(portTwo));
    assertTrue(browser.cookie().isEmpty(), "invalidate() cleared the cookie");
    assertEquals("[] -", browser.get(portOne), "and the session is gone on the other server too");
  }

  @Test
  void aTamperedCookieStartsAFreshSessionInsteadOfAnError() throws Exception {
    Client browser = new Client();
    browser.post(portOne, "mug");
    String token = browser.cookie().orElseThrow();
    String id = browser.get(portTwo).split(" ")[1];
    char last = token.charAt(token.length() - 2);
    browser.setCookie(token.substring(0, token.length() - 2) + (last == 'A' ? 'B' : 'A') + token.charAt(token.length() - 1));
    String after = browser.get(portTwo);
    assertEquals("[] -", after, "a forged token is no session: nothing of it is trusted");
    assertEquals("[tea]", browser.post(portOne, "tea"));
    assertNotEquals(id, browser.get(portTwo).split(" ")[1], "a new session, with a new id");
  }

  @Test
  void theExamplesReadmeShowsExactlyThisWebXml() throws Exception {
    List<String> block = ReadmeBlocks.markdown(Path.of("..", "README.md"), "war-webxml");
    assertFalse(block.isEmpty(), "examples/README.md has no war-webxml block");
    List<String> file = Files.readAllLines(Path.of("src", "main", "webapp", "WEB-INF", "web.xml")).stream()
        .map(String::strip).collect(Collectors.toList());
    assertEquals(file, block);
  }

  /** The session cookie's name, as web.xml sets it. */
  private static final String COOKIE = "__Host-SHOP";

  /**
   * A browser's part: the JDK client with a cookie jar shared by both ports of 127.0.0.1, which
   * sends {@code Secure} cookies to http://127.0.0.1 as browsers do (the JDK's sends them only
   * over https; the filter's cookies are always {@code Secure}).
   */
  private static final class Client {
    private final CookieManager jar = new CookieManager(null, CookiePolicy.ACCEPT_ALL) {
      @Override
      public java.util.Map<String, List<String>> get(URI uri, java.util.Map<String, List<String>> headers)
          throws IOException {
        try {
          return super.get(new URI("https", null, uri.getHost(), uri.getPort(), uri.getPath(), uri.getQuery(), null),
              headers);
        } catch (java.net.URISyntaxException e) {
          throw new IllegalArgumentException(e);
        }
      }
    };
    private final HttpClient http = HttpClient.newBuilder().cookieHandler(jar).build();

    String get(int port) throws IOException, InterruptedException {
      return send(HttpRequest.newBuilder(uri(port, "")).GET());
    }

    String post(int port, String item) throws IOException, InterruptedException {
      return send(HttpRequest.newBuilder(uri(port, "?item=" + item)).POST(HttpRequest.BodyPublishers.noBody()));
    }

    String delete(int port) throws IOException, InterruptedException {
      return send(HttpRequest.newBuilder(uri(port, "")).DELETE());
    }

    Optional<String> cookie() {
      return jar.getCookieStore().getCookies().stream().filter(c -> c.getName().equals(COOKIE))
          .map(HttpCookie::getValue).findFirst();
    }

    void setCookie(String value) {
      HttpCookie c = jar.getCookieStore().getCookies().stream().filter(x -> x.getName().equals(COOKIE))
          .findFirst().orElseThrow();
      jar.getCookieStore().removeAll();
      HttpCookie forged = new HttpCookie(COOKIE, value);
      forged.setPath(c.getPath());
      forged.setVersion(0);
      jar.getCookieStore().add(URI.create("http://127.0.0.1/shop/"), forged);
    }

    private static URI uri(int port, String query) {
      return URI.create("http://127.0.0.1:" + port + "/shop/cart" + query);
    }

    private String send(HttpRequest.Builder request) throws IOException, InterruptedException {
      HttpResponse<String> r = http.send(request.timeout(Duration.ofSeconds(20)).build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(200, r.statusCode(), r.body());
      return r.body();
    }
  }
}
