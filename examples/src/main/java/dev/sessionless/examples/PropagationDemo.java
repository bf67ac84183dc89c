package dev.sessionless.examples;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.propagation.CallContext;
import dev.sessionless.propagation.EdgeContextFilter;
import dev.sessionless.propagation.InternalToken;
import dev.sessionless.propagation.InternalTokenFilter;
import dev.sessionless.propagation.InternalTokenMinter;
import dev.sessionless.propagation.InternalTokenVerifier;
import dev.sessionless.propagation.JwksServlet;
import dev.sessionless.propagation.OutgoingTokens;
import dev.sessionless.servlet.SessionlessFilter;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.io.PrintStream;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.function.Consumer;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * A session carried from the edge to internal services, three Jetty servers in one JVM on
 * loopback: the edge keeps the browser session (the session filter) and, for each call to the
 * orders service, mints a 60-second internal token with only the cart; orders re-mints a
 * narrower one (the tenant only) for billing. Each service verifies with its caller's public
 * keys, fetched from the caller's JWKS endpoint; no service but the edge can mint for the edge.
 * Every service prints its log line with the journey's trace id. Then the browser's own cookie,
 * sent straight to orders, is refused with {@code 401}.
 *
 * <p>Run: {@code mvn -q -B -ntp -pl examples -am package -DskipTests -Ddemo=PropagationDemo}.
 */
public final class PropagationDemo {
  static final String EDGE = "https://edge.example";
  static final String ORDERS = "https://orders.internal";

  private PropagationDemo() {}

  /** Runs the demo, printing to standard output. */
  public static void main(String[] args) throws Exception {
    run(System.out);
  }

  /**
   * Runs the demo, printing to {@code out}.
   *
   * @return billing's answer to the checkout
   */
  public static String run(PrintStream out) throws Exception {
    List<Server> servers = new ArrayList<>();
    List<Keyring> keyrings = new ArrayList<>();
    try {
      // Each issuer's signing keys stay with it; only the public halves are published.
      KeySet edgeKeys = KeySet.of(TokenKey.generate("edge-2026-11", Algorithm.ES256));
      KeySet ordersKeys = KeySet.of(TokenKey.generate("orders-2026-11", Algorithm.EDDSA));

      // Each issuer's JWKS endpoint (here a server of its own; in production, a path of the service).
      URI edgeJwks = start(servers, c -> c.addServlet(new ServletHolder(JwksServlet.builder().keys(edgeKeys).build()), "/jwks.json"))
          .resolve("jwks.json");
      URI ordersJwks = start(servers, c -> c.addServlet(new ServletHolder(JwksServlet.builder().keys(ordersKeys).build()),
          "/jwks.json")).resolve("jwks.json");

      // Billing: accepts tokens for "billing" from the orders service, with its published keys.
      Keyring ordersPublic = keyring(keyrings, ordersJwks);
      URI billing = start(servers, c -> serve(c, InternalTokenFilter.builder().verifier(InternalTokenVerifier.builder()
          .audience("billing").issuer(ORDERS, ordersPublic).build()).build(), null, new Service("billing", out, null, null)));

      // Orders: accepts tokens for "orders" from the edge; calls billing with the tenant only.
      Keyring edgePublic = keyring(keyrings, edgeJwks);
      OutgoingTokens fromOrders = OutgoingTokens.builder().minter(InternalTokenMinter.builder().keys(ordersKeys)
          .algorithm(Algorithm.EDDSA).issuer(ORDERS).build()).grant("billing", "tenant").build();
      HttpClient toBilling = fromOrders.httpClient(HttpClient.newHttpClient(), "billing");
      URI orders = start(servers, c -> serve(c, InternalTokenFilter.builder().verifier(InternalTokenVerifier.builder()
          .audience("orders").issuer(EDGE, edgePublic).build()).build(), null,
          new Service("orders", out, toBilling, billing.resolve("invoice"))));

      // The edge: the browser session in a cookie, the call context, and a client for orders
      // whose tokens carry the cart and the tenant (never the CSRF token).
      OutgoingTokens fromEdge = OutgoingTokens.builder().minter(InternalTokenMinter.builder().keys(edgeKeys)
          .issuer(EDGE).build()).grant("orders", "cart", "tenant").build();
      HttpClient toOrders = fromEdge.httpClient(HttpClient.newHttpClient(), "orders");
      SessionlessFilter sessions = SessionlessFilter.builder().keys(KeySet.of(TokenKey.generate("browser", Algorithm.DIR_A256GCM)))
          .issuer(EDGE).audience("shop").build();
      URI shop = start(servers, c -> serve(c, sessions, EdgeContextFilter.builder().subjectAttribute("user").build(),
          new Service("edge", out, toOrders, orders.resolve("order"))));

      HttpClient browser = HttpClient.newBuilder().cookieHandler(new BrowserCookies()).build();
      get(browser, shop.resolve("login"));
      String answer = get(browser, shop.resolve("checkout")).body();
      out.println("browser got: " + answer);
      HttpResponse<String> direct = get(browser, orders.resolve("order"));
      out.println("browser cookie sent straight to orders: " + direct.statusCode() + " "
          + direct.headers().firstValue("WWW-Authenticate").orElse(""));
      return answer;
    } finally {
      for (Keyring k : keyrings) {
        k.close();
      }
      for (int i = servers.size() - 1; i >= 0; i--) {
        servers.get(i).stop();
      }
    }
  }

  /**
   * One service's application: at the edge, a login stores the session; any other request logs
   * its line and calls the next service, or, at the end of the chain, answers what it was told.
   */
  static final class Service extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private final String name;
    private final transient PrintStream out;
    private final transient HttpClient next;
    private final URI nextUri;

    Service(String name, PrintStream out, HttpClient next, URI nextUri) {
      this.name = name;
      this.out = out;
      this.next = next;
      this.nextUri = nextUri;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      if (req.getRequestURI().endsWith("/login")) {
        HttpSession s = req.getSession();
        s.setAttribute("user", "alice");
        s.setAttribute("cart", List.of("espresso-beans", "grinder"));
        s.setAttribute("tenant", "acme");
        s.setAttribute("csrf", "stays-at-the-edge");
        return;
      }
      CallContext context = CallContext.current().orElseThrow();
      InternalToken token = InternalTokenFilter.token(req).orElse(null);
      out.println("[" + name + "] " + context + (token == null ? " user " + req.getSession().getAttribute("user")
          : " iss=" + token.issuer() + " actors=" + token.actors() + " state=" + token.stateNames()));
      if (next == null) {
        resp.getWriter().write(token.subject().orElse("-") + " of " + token.get("tenant", String.class).orElse("-")
            + ", via " + token.actors());
        return;
      }
      try {
        HttpResponse<String> r = next.send(HttpRequest.newBuilder(nextUri).build(), HttpResponse.BodyHandlers.ofString());
        resp.setStatus(r.statusCode());
        resp.getWriter().write(r.body());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        resp.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
      }
    }
  }

  static HttpResponse<String> get(HttpClient client, URI uri) throws IOException, InterruptedException {
    return client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
  }

  static Keyring keyring(List<Keyring> keyrings, URI jwks) {
    // Plain http on loopback only: real deployments fetch keys over https.
    Keyring k = Keyring.builder().jwksUrl(jwks).httpAllowInsecurePlainHttp(true).build();
    keyrings.add(k);
    return k;
  }

  static void serve(ServletContextHandler c, Filter first, Filter second, HttpServlet app) {
    c.addFilter(new FilterHolder(first), "/*", EnumSet.of(DispatcherType.REQUEST));
    if (second != null) {
      c.addFilter(new FilterHolder(second), "/*", EnumSet.of(DispatcherType.REQUEST));
    }
    c.addServlet(new ServletHolder(app), "/*");
  }

  /** A Jetty on a free loopback port, its context set up by {@code setup}, started. */
  static URI start(List<Server> servers, Consumer<ServletContextHandler> setup) throws Exception {
    Server s = new Server();
    ServerConnector connector = new ServerConnector(s);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    s.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    setup.accept(context);
    s.setHandler(context);
    servers.add(s);
    s.start();
    return URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/");
  }

  /**
   * A cookie jar that sends {@code Secure} cookies to {@code http://127.0.0.1} and {@code
   * localhost}, as browsers do (they treat loopback as a secure context); the JDK's {@link
   * CookieManager} sends them only over https, and the filter's cookies are always {@code Secure}.
   */
  static final class BrowserCookies extends CookieManager {
    @Override
    public java.util.Map<String, List<String>> get(URI uri, java.util.Map<String, List<String>> headers)
        throws IOException {
      String host = uri.getHost();
      boolean loopback = "http".equals(uri.getScheme()) && ("127.0.0.1".equals(host) || "localhost".equals(host));
      try {
        return super.get(loopback ? new URI("https", null, host, uri.getPort(), uri.getPath(), uri.getQuery(), null)
            : uri, headers);
      } catch (java.net.URISyntaxException e) {
        throw new IllegalArgumentException(e);
      }
    }
  }
}
