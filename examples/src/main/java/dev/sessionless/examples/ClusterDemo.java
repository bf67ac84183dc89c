package dev.sessionless.examples;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.servlet.SessionlessFilter;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.catalina.Context;
import org.apache.catalina.startup.Tomcat;
import org.apache.catalina.valves.ErrorReportValve;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * Three servlet containers — Jetty, Tomcat, Jetty — run the same ordinary shop
 * servlet that uses {@code HttpSession}, with the Sessionless filter in front. They share nothing
 * but a JWKS file, which each reads through a live {@link Keyring}. A client walks a cart
 * round-robin across them; one node is stopped mid-way and the cart carries on, because it lives
 * in the cookie. Then the key rotates: a new key is published to the file a moment before it
 * activates, every node picks it up, and tokens signed by the old key keep working. Last, a
 * tampered cookie starts a fresh session instead of an error.
 *
 * <p>Run: {@code mvn -q -B -ntp -pl examples -am package -DskipTests -Ddemo=ClusterDemo}. The root
 * README's demo, which sets Sessionless beside in-memory sessions, is the load tool's {@code demo}.
 */
public final class ClusterDemo {
  /** Tomcat logs its start and stop through java.util.logging at INFO; the demo keeps quiet. */
  private static final java.util.logging.Logger TOMCAT_LOG = java.util.logging.Logger.getLogger("org.apache");
  /** The keyrings log key changes at INFO; the demo prints its own lines instead. */
  private static final java.util.logging.Logger KEYRING_LOG = java.util.logging.Logger.getLogger("dev.sessionless");

  private ClusterDemo() {}

  /** The cart, an application type registered with the filter. */
  public static final class Cart {
    /** The items, in the order added. */
    public List<String> items = new ArrayList<>();
  }

  /** An ordinary servlet: it knows nothing of tokens. */
  static final class ShopServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private final String node;

    ShopServlet(String node) {
      this.node = node;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
      HttpSession session = req.getSession();
      Cart cart = (Cart) session.getAttribute("cart");
      if (cart == null) {
        cart = new Cart();
        session.setAttribute("cart", cart);
      }
      String item = req.getParameter("add");
      if (item != null) {
        cart.items.add(item); // changed in place: the filter notices and writes the cookie
      }
      Object rejected = req.getAttribute(SessionlessFilter.REJECTION_ATTRIBUTE);
      res.setContentType("text/plain;charset=UTF-8");
      res.getWriter().print(node + " " + cart.items + (rejected == null ? "" : " (token refused: " + rejected + ")"));
    }
  }

  /** One running node: its port, and how to stop it (Jetty and Tomcat each their own way). */
  record Node(int port, Stop stop) implements AutoCloseable {
    @Override
    public void close() throws Exception {
      stop.run();
    }
  }

  /** Stops a node's container. */
  interface Stop {
    void run() throws Exception;
  }

  /** Every node's keyring, so the demo can wait until all of them saw a rotated file. */
  static final List<Keyring> KEYRINGS = new java.util.concurrent.CopyOnWriteArrayList<>();

  static ServletContainerInitializer app(String name, Path jwks) {
    return (classes, ctx) -> {
      Keyring keys = Keyring.builder().jwksFile(jwks).filePollInterval(java.time.Duration.ofMillis(100)).build();
      KEYRINGS.add(keys);
      SessionlessFilter filter = SessionlessFilter.builder()
          .keys(keys).issuer("https://shop.example").audience("shop")
          // __Host-: the browser keeps it to this host, Path=/, Secure (the filter's defaults are
          // encrypted tokens, dir + A256GCM, and Secure cookies, which browsers accept on localhost).
          .cookieName("__Host-SHOP").attributeTypes(Cart.class).build();
      ctx.addFilter("sessionless", filter)
          .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
      ctx.addServlet("shop", new ShopServlet(name)).addMapping("/cart");
    };
  }

  static Node jetty(String name, Path jwks) throws Exception {
    Server server = new Server();
    // Quiet error pages (servlet-filter README): a request Jetty refuses itself names no server
    // version and shows no stack trace or exception message.
    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    ErrorHandler quietErrors = new ErrorHandler();
    quietErrors.setShowStacks(false);
    quietErrors.setShowCauses(false);
    quietErrors.setShowMessageInTitle(false);
    server.setErrorHandler(quietErrors);
    ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler("/");
    context.addServletContainerInitializer(app(name, jwks));
    server.setHandler(context);
    server.start();
    return new Node(connector.getLocalPort(), server::stop);
  }

  static Node tomcat(String name, Path jwks) throws Exception {
    Path base = Files.createTempDirectory("tomcat");
    Tomcat tomcat = new Tomcat();
    tomcat.setBaseDir(base.toString());
    tomcat.setPort(0);
    tomcat.getConnector().setProperty("address", "127.0.0.1");
    // Quiet error pages (servlet-filter README): no report, no "Apache Tomcat/x.y" on Tomcat's own pages.
    ErrorReportValve quietErrors = new ErrorReportValve();
    quietErrors.setShowReport(false);
    quietErrors.setShowServerInfo(false);
    tomcat.getHost().getPipeline().addValve(quietErrors);
    Context context = tomcat.addContext("", base.toString());
    context.addServletContainerInitializer(app(name, jwks), null);
    tomcat.start();
    return new Node(tomcat.getConnector().getLocalPort(), () -> {
      tomcat.stop();
      tomcat.destroy();
    });
  }

  /** Runs the demo, printing to standard output. */
  public static void main(String[] args) throws Exception {
    run(System.out);
    System.exit(0);
  }

  /**
   * Runs the demo, printing to {@code out}.
   *
   * @return the body of every reply, in order
   */
  public static List<String> run(PrintStream out) throws Exception {
    TOMCAT_LOG.setLevel(java.util.logging.Level.SEVERE);
    KEYRING_LOG.setLevel(java.util.logging.Level.WARNING);
    Path dir = Files.createTempDirectory("sessionless-demo");
    Path jwks = dir.resolve("keys.jwks");
    java.time.Instant start = java.time.Instant.now();
    TokenKey november = TokenKey.generate("2026-11", Algorithm.DIR_A256GCM).withLifecycle(start, start, null, null);
    Files.writeString(jwks, KeySet.of(november).toJwksWithSecrets());
    out.println("One JWKS file, three nodes that share nothing else:");
    List<Node> nodes = List.of(jetty("jetty-a", jwks), tomcat("tomcat-b", jwks), jetty("jetty-c", jwks));
    List<String> replies = new ArrayList<>();
    try {
      HttpClient http = HttpClient.newHttpClient();
      Map<String, String> cookies = new LinkedHashMap<>();
      boolean[] down = new boolean[nodes.size()];
      String[] items = {"espresso-beans", "grinder", "filter-papers", "mug", "milk-jug", "scales"};
      int turn = 0;
      for (int step = 0; step <= items.length; step++) {
        if (step == 3) {
          nodes.get(1).close();
          out.println("  -- tomcat-b stopped: it held no session, so nothing is lost --");
        }
        if (step == 5) {
          rotate(jwks, november, out);
        }
        String query = step < items.length ? "?add=" + items[step] : "";
        String reply = null;
        while (reply == null) {
          int n = turn++ % nodes.size();
          if (down[n]) {
            continue;
          }
          try {
            reply = get(http, nodes.get(n).port(), "/cart" + query, cookies);
          } catch (ConnectException refused) {
            down[n] = true; // the balancer's health check takes it out of rotation
          }
        }
        replies.add(reply);
        out.println("  " + (query.isEmpty() ? "view" : "add " + items[step]) + " -> " + reply
            + "   [cookie " + cookies.getOrDefault("__Host-SHOP", "").length() + " chars, kid " + kid(cookies.get("__Host-SHOP")) + "]");
      }

      Map<String, String> tampered = new LinkedHashMap<>(cookies);
      String token = tampered.get("__Host-SHOP");
      tampered.put("__Host-SHOP", token.substring(0, token.length() - 2) + (token.endsWith("AA") ? "EE" : "AA"));
      String reply = get(http, nodes.get(0).port(), "/cart", tampered);
      replies.add(reply);
      out.println("A tampered cookie -> " + reply);
    } finally {
      KEYRINGS.forEach(Keyring::close);
      KEYRINGS.clear();
      for (Node node : nodes) {
        try {
          node.close();
        } catch (Exception alreadyStopped) {
          // tomcat-b was stopped on purpose
        }
      }
    }
    return replies;
  }

  /**
   * Rotates as {@code keyring rotate} does: the new key is published now and activates a moment
   * later, when the old one retires; the old one still verifies until it expires. The demo waits
   * until every node has the new key before it activates — in production the lead time is longer
   * than the slowest node's refresh.
   */
  static void rotate(Path jwks, TokenKey old, PrintStream out) throws IOException, InterruptedException {
    java.time.Instant now = java.time.Instant.now();
    java.time.Instant switchAt = now.plusSeconds(2);
    TokenKey december = TokenKey.generate("2026-12", Algorithm.DIR_A256GCM).withLifecycle(now, switchAt, null, null);
    KeySet rotated = KeySet.of(old.withLifecycle(old.published().orElse(null), old.activates().orElse(null),
        switchAt, switchAt.plus(java.time.Duration.ofMinutes(30))), december);
    Path tmp = jwks.resolveSibling("keys.jwks.tmp");
    Files.writeString(tmp, rotated.toJwksWithSecrets());
    Files.move(tmp, jwks, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    for (Keyring k : KEYRINGS) {
      while (k.current().key("2026-12").isEmpty()) {
        Thread.sleep(20);
      }
    }
    while (java.time.Instant.now().isBefore(switchAt)) {
      Thread.sleep(20);
    }
    out.println("  -- key rotated: 2026-12 signs from now on, tokens under 2026-11 still verify --");
  }

  /** The kid in a token's header, for display. */
  static String kid(String token) {
    if (token == null) {
      return "-";
    }
    String header = new String(java.util.Base64.getUrlDecoder().decode(token.substring(0, token.indexOf('.'))),
        java.nio.charset.StandardCharsets.UTF_8);
    int at = header.indexOf("\"kid\":\"");
    return at < 0 ? "?" : header.substring(at + 7, header.indexOf('"', at + 7));
  }

  private static String get(HttpClient http, int port, String path, Map<String, String> cookies)
      throws IOException, InterruptedException {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
    if (!cookies.isEmpty()) {
      StringBuilder header = new StringBuilder();
      cookies.forEach((k, v) -> header.append(header.length() == 0 ? "" : "; ").append(k).append('=').append(v));
      b.header("Cookie", header.toString());
    }
    HttpResponse<String> res = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    if (res.statusCode() != 200) {
      throw new IllegalStateException("HTTP " + res.statusCode() + ": " + res.body());
    }
    for (String setCookie : res.headers().allValues("set-cookie")) {
      String pair = setCookie.split(";", 2)[0];
      int eq = pair.indexOf('=');
      String value = pair.substring(eq + 1);
      if (value.isEmpty() || setCookie.toLowerCase().contains("max-age=0")) {
        cookies.remove(pair.substring(0, eq));
      } else {
        cookies.put(pair.substring(0, eq), value);
      }
    }
    return res.body();
  }
}
