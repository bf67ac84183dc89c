package dev.sessionless.webflux.bench;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.webflux.SessionlessWebSessionManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.springframework.http.HttpCookie;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.http.server.reactive.MockServerHttpResponse;
import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.web.server.adapter.DefaultServerWebExchange;
import org.springframework.web.server.i18n.AcceptHeaderLocaleContextResolver;
import org.springframework.web.server.WebSession;
import org.springframework.web.server.session.DefaultWebSessionManager;
import org.springframework.web.server.session.InMemoryWebSessionStore;
import org.springframework.web.server.session.WebSessionManager;

/**
 * A token-backed {@code WebSession} against WebFlux's in-memory one, in the same run, on the
 * same work as the servlet filter's benchmark: a request that reads the cart (about 256 bytes of
 * state), and one that replaces it and commits the response (the token written). Each
 * operation makes its exchange (WebFlux's own, on mock request and response: no server, no
 * network), so "added" is the
 * difference between the two managers. The request path is parsed first, as WebFlux's handler
 * mapping does on every routed request (the token session reads the context path from it). The
 * {@code token} parameter adds an uncompressed token beside the default, to show what {@code
 * DEF} costs. Run by hand:
 *
 * <pre>
 * mvn -B -ntp -q -pl webflux -am test-compile dependency:build-classpath \
 *     -Dmdep.outputFile=/tmp/cp.txt -Dmdep.includeScope=test -Dmaven.javadoc.skip=true
 * java -cp webflux/target/test-classes:webflux/target/classes:$(cat /tmp/cp.txt) \
 *     org.openjdk.jmh.Main WebSessionBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class WebSessionBenchmark {
  private SessionlessWebSessionManager tokens;
  private WebSessionManager memory;
  private HttpCookie tokenCookie;
  private HttpCookie memoryCookie;
  private List<String> cart;
  /** The token format: the default ({@code dir} + A256GCM + {@code DEF}) or uncompressed. */
  @Param({"default", "uncompressed"})
  public String token;

  /** Two managers, each with a session holding the cart, and the cookie that names it. */
  @Setup
  public void setUp() {
    tokens = SessionlessWebSessionManager.builder()
        .keys(KeySet.of(TokenKey.generate("k1", Algorithm.DIR_A256GCM)))
        .issuer("https://shop.example").audience("shop").compress(!token.equals("uncompressed")).build();
    DefaultWebSessionManager inMemory = new DefaultWebSessionManager();
    inMemory.setSessionStore(new InMemoryWebSessionStore());
    memory = inMemory;
    cart = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      cart.add("sku-" + (1000 + i) + ":qty=" + (i + 1));
    }
    tokenCookie = first(tokens, null, "SESSIONLESS");
    memoryCookie = first(memory, null, "SESSION");
  }

  /** Runs one exchange that puts the cart, and returns the session cookie it set. */
  private HttpCookie first(WebSessionManager m, HttpCookie in, String name) {
    DefaultServerWebExchange ex = exchange(m, in);
    WebSession s = ex.getSession().block(Duration.ofSeconds(5));
    s.getAttributes().put("cart", new ArrayList<>(cart));
    ex.getResponse().setComplete().block(Duration.ofSeconds(5));
    if (ex.getResponse().getCookies().containsKey(name)) { // WebFlux's id resolver
      return new HttpCookie(name, ex.getResponse().getCookies().getFirst(name).getValue());
    }
    String header = ex.getResponse().getHeaders().getOrEmpty("Set-Cookie").stream() // the engine's own header
        .filter(h -> h.startsWith(name + "=")).findFirst().orElseThrow();
    return new HttpCookie(name, header.substring(name.length() + 1, header.indexOf(';')));
  }

  /** Made once: building the codecs per exchange (as MockServerWebExchange does) costs milliseconds. */
  private static final ServerCodecConfigurer CODECS = ServerCodecConfigurer.create();
  private static final AcceptHeaderLocaleContextResolver LOCALES = new AcceptHeaderLocaleContextResolver();

  private static DefaultServerWebExchange exchange(WebSessionManager m, HttpCookie cookie) {
    MockServerHttpRequest.BaseBuilder<?> r = MockServerHttpRequest.get("/cart");
    if (cookie != null) {
      r.cookie(cookie);
    }
    DefaultServerWebExchange ex =
        new DefaultServerWebExchange(r.build(), new MockServerHttpResponse(), m, CODECS, LOCALES);
    ex.getRequest().getPath(); // parsed (and kept) by WebFlux's handler mapping on every routed request
    return ex;
  }

  private static Object read(WebSessionManager m, HttpCookie cookie) {
    DefaultServerWebExchange ex = exchange(m, cookie);
    Object v = ex.getSession().block().getAttributes().get("cart");
    ex.getResponse().setComplete().block();
    return v;
  }

  private Object write(WebSessionManager m, HttpCookie cookie) {
    DefaultServerWebExchange ex = exchange(m, cookie);
    WebSession s = ex.getSession().block();
    List<String> next = new ArrayList<>(cart);
    s.getAttributes().put("cart", next);
    ex.getResponse().setComplete().block();
    return ex.getResponse().getHeaders();
  }

  /** Reads the cart from the token. */
  @Benchmark
  public Object readToken() {
    return read(tokens, tokenCookie);
  }

  /** Reads the cart from WebFlux's in-memory store. */
  @Benchmark
  public Object readInMemory() {
    return read(memory, memoryCookie);
  }

  /** Replaces the cart; the token is written at commit. */
  @Benchmark
  public Object writeToken() {
    return write(tokens, tokenCookie);
  }

  /** Replaces the cart in WebFlux's in-memory store. */
  @Benchmark
  public Object writeInMemory() {
    return write(memory, memoryCookie);
  }
}
