package dev.sessionless.benchmarks;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.servlet.SessionlessFilter;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.Server;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What a session costs per request inside a real servlet container: embedded Jetty 12 (ee10)
 * driven in-process through its {@code LocalConnector} (the whole HTTP parse, dispatch and
 * response generation, without sockets), with an application servlet that uses {@code
 * HttpSession} the ordinary way. One kept-alive connection carries every request, and the
 * connector runs its tasks on the calling thread ({@link InlineExecutor}), so a request is
 * parsed, filtered, served and answered on the benchmark thread: the container's real request
 * and response objects, without the hand-off to a pool thread and back that used to add ~70 µs
 * and most of the noise to every row.
 *
 * <ul>
 *   <li>{@code session=none}: the same servlet without any session: the container's own cost,
 *       to subtract.
 *   <li>{@code session=container}: Jetty's in-memory {@code HttpSession} (a {@code
 *       SessionHandler} with its default cache; the {@code JSESSIONID} cookie).
 *   <li>{@code session=sessionless}: the Sessionless filter with an HS256 key and the default
 *       settings (verification cache on, as a server would run it).
 *   <li>{@code session=sessionless-zip}: the same filter with an encrypted token ({@code dir} +
 *       {@code A256GCM}) whose payload is DEFLATEd ({@code compress(true)}): a shorter cookie
 *       for the container to parse, against compressing on every write (and inflating on every
 *       verification-cache miss, which this benchmark, one cookie per connection, never has).
 * </ul>
 *
 * {@code readOnly} reads a ~256-byte cart attribute (a record with a list of items) and writes
 * nothing; {@code writing} replaces it with a new one on every request, so Sessionless decodes,
 * checks the new value round-trips, encodes and sets a cookie. Set-up checks that a read writes
 * no cookie and that a write does.
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar FilterOverheadBenchmark -f 2 -wi 3 -w 2s -i 5 -r 2s -prof gc
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class FilterOverheadBenchmark {
  /** Which session implementation serves the request. */
  @Param({"none", "container", "sessionless", "sessionless-zip", "sessionless-dict", "sessionless-signed-dict"})
  String session;

  /**
   * Jetty's per-connection header cache ({@code HttpConfiguration.setHeaderCacheSize}): 1024,
   * Jetty's default, or 0 (off). With it on, every header line is first looked up in a trie one
   * character at a time, so a long session cookie costs a walk over its whole length on every
   * request even when it is the same cookie as last time (see benchmarks/LOG.md).
   */
  @Param({"1024"})
  int headerCache;

  /**
   * How many different sessions the reads and writes cycle through: 1 (every request after the
   * first is a verification-cache hit) or more than the cache holds (10,000 by default, so every
   * request decodes its token in full, as a server with many users sees on a miss).
   */
  @Param({"1"})
  int users;

  /**
   * Which hand-written fast paths run: {@code on} (all, the default), {@code off} (none: {@code
   * dev.sessionless.fastpaths=off}) or the name of the one path turned off ({@code claims},
   * {@code state}, {@code deflate}, {@code records}: {@code
   * dev.sessionless.fastpath.<name>=off}). The switch is read once per JVM, and JMH runs every
   * parameter combination in a fresh fork, so it is set before the filter's classes load.
   */
  @Param({"on"})
  String fastPaths;

  Server server;
  LocalConnector local;
  LocalConnector.LocalEndPoint endpoint;
  byte[][] readRequests;
  byte[][] writeRequests;
  int next;

  /** One line of the cart. */
  public record Item(String sku, String name, int quantity, long priceCents) {}

  /** The session attribute: about 256 bytes of JSON. */
  public record Cart(String locale, String currency, List<Item> items, String promotion) {}

  static Cart cart(int variant) {
    List<Item> items = new ArrayList<>();
    items.add(new Item("SKU-1001", "Espresso beans 1kg", 1, 2490));
    items.add(new Item("SKU-2002", "Ceramic cup, white", 2, 1290));
    items.add(new Item("SKU-3003", "Milk jug 350ml", 1, 1990 + variant % 100));
    return new Cart("en-GB", "GBP", items, "WINTER-" + (variant % 1000));
  }

  /** The application servlet, the same in every mode. */
  static final class ShopServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private final boolean sessions;
    private int counter;

    ShopServlet(boolean sessions) {
      this.sessions = sessions;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
      res.setContentType("text/plain;charset=UTF-8");
      boolean write = "/write".equals(req.getServletPath());
      Object cart;
      if (!sessions) {
        cart = write ? cart(counter++) : null;
      } else if (write) {
        HttpSession s = req.getSession();
        cart = cart(counter++);
        s.setAttribute("cart", cart);
      } else {
        HttpSession s = req.getSession(false);
        cart = s == null ? null : s.getAttribute("cart");
      }
      res.getWriter().write(cart == null ? "empty" : "items=" + ((Cart) cart).items().size());
    }
  }

  /**
   * The connector's executor: runs each task at once on the thread that submits it, so the
   * request the benchmark hands to the endpoint is parsed, filtered, served and answered before
   * {@code addInputAndExecute} returns. Only the connector's acceptor (a loop that waits for new
   * endpoints) gets a thread of its own.
   */
  static final class InlineExecutor implements Executor {
    private final Executor threads;

    InlineExecutor(Executor threads) {
      this.threads = threads;
    }

    @Override
    public void execute(Runnable task) {
      if (task.getClass().getName().endsWith("$Acceptor")) {
        threads.execute(task);
      } else {
        task.run();
      }
    }
  }

  @Setup(Level.Trial)
  public void setup() throws Exception {
    if (fastPaths.equals("off")) {
      System.setProperty("dev.sessionless.fastpaths", "off");
    } else if (!fastPaths.equals("on")) {
      System.setProperty("dev.sessionless.fastpath." + fastPaths, "off");
    }
    server = new Server();
    HttpConfiguration http = new HttpConfiguration();
    http.setHeaderCacheSize(headerCache);
    local = new LocalConnector(server, new InlineExecutor(server.getThreadPool()), null, null, 1,
        new HttpConnectionFactory(http));
    server.addConnector(local);
    boolean sessions = !session.equals("none");
    ServletContextHandler context = session.equals("container")
        ? new ServletContextHandler(ServletContextHandler.SESSIONS)
        : new ServletContextHandler();
    context.setContextPath("/");
    if (session.startsWith("sessionless")) {
      boolean encrypted = session.equals("sessionless-zip") || session.equals("sessionless-dict");
      Algorithm alg = encrypted ? Algorithm.DIR_A256GCM : Algorithm.HS256;
      dev.sessionless.core.Compression compression = switch (session) {
        case "sessionless-zip" -> dev.sessionless.core.Compression.DEFLATE;
        case "sessionless-dict", "sessionless-signed-dict" -> dev.sessionless.core.Compression.DEFLATE_WITH_DICTIONARY;
        default -> dev.sessionless.core.Compression.NONE;
      };
      SessionlessFilter filter = SessionlessFilter.builder()
          .keys(KeySet.of(TokenKey.generate("bench", alg))).algorithm(alg)
          .issuer("https://shop.example").audience("shop")
          .attributeTypes(Cart.class, Item.class).compression(compression).build();
      context.addFilter(new FilterHolder(filter), "/*", EnumSet.of(DispatcherType.REQUEST));
    }
    ShopServlet servlet = new ShopServlet(sessions);
    context.addServlet(new ServletHolder(servlet), "/read");
    context.addServlet(new ServletHolder(servlet), "/write");
    server.setHandler(context);
    server.start();

    endpoint = local.connect();
    String cookie = "";
    if (sessions) {
      String first = exchange(request("/write", ""));
      cookie = RawHttp.cookieOf(first);
      if (cookie.isEmpty()) {
        throw new IllegalStateException("the first write set no session cookie:\n" + first);
      }
    }
    readRequests = new byte[users][];
    writeRequests = new byte[users][];
    for (int u = 0; u < users; u++) {
      if (u > 0 && sessions) {
        // A new session of its own: a write without a cookie answers with a fresh token.
        cookie = RawHttp.cookieOf(exchange(request("/write", "")));
      }
      readRequests[u] = request("/read", cookie).getBytes(StandardCharsets.ISO_8859_1);
      writeRequests[u] = request("/write", cookie).getBytes(StandardCharsets.ISO_8859_1);
    }
    byte[] readRequest = readRequests[0];
    byte[] writeRequest = writeRequests[0];
    String read = exchange(readRequest);
    if (!read.startsWith("HTTP/1.1 200") || read.contains("Set-Cookie") != false
        || !read.contains(sessions ? "items=3" : "empty")) {
      throw new IllegalStateException("a read must answer 200 from the session and write no cookie:\n" + read);
    }
    String written = exchange(writeRequest);
    if (!written.startsWith("HTTP/1.1 200") || !written.contains("items=3")
        || (session.startsWith("sessionless") && !written.contains("Set-Cookie"))) {
      throw new IllegalStateException("a write must answer 200 (and set the token cookie):\n" + written);
    }
    if (session.startsWith("sessionless")) {
      // The size the browser sends back for the cart: the Cookie header's value.
      System.out.println("# cart token as a cookie (" + session + "): " + cookie.length() + " bytes");
    }
  }

  static String request(String path, String cookie) {
    return "GET " + path + " HTTP/1.1\r\n"
        + "Host: shop.example\r\n"
        + "User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0\r\n"
        + "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8\r\n"
        + "Accept-Language: en-GB,en;q=0.5\r\n"
        + (cookie.isEmpty() ? "" : "Cookie: " + cookie + "\r\n")
        + "\r\n";
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    server.stop();
  }

  String exchange(String request) throws Exception {
    return exchange(request.getBytes(StandardCharsets.ISO_8859_1));
  }

  /** One request and its whole response as text (set-up only). */
  String exchange(byte[] request) throws Exception {
    return RawHttp.text(RawHttp.send(endpoint, request));
  }

  @Benchmark
  public ByteBuffer readOnly() throws Exception {
    return RawHttp.send(endpoint, readRequests[following()]);
  }

  /** The next session in turn (always 0 with one user). */
  private int following() {
    int i = next;
    next = i + 1 == users ? 0 : i + 1;
    return i;
  }

  @Benchmark
  public ByteBuffer writing() throws Exception {
    return RawHttp.send(endpoint, writeRequests[following()]);
  }
}
