package dev.sessionless.propagation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.servlet.SessionlessFilter;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The proof: a browser session at the edge (the session filter), user journeys edge →
 * orders (A) → billing (B), every tier two real Jetty instances on loopback chosen round-robin;
 * the edge rotates its signing key mid-run and A learns the new key through its JWKS refresh.
 * Zero failed calls, and each journey's log lines in all three services share one trace id.
 * Run once per {@link TokenProfile}: with Transaction Tokens every service verifies for the
 * trust domain, the token travels in {@code Txn-Token}, and the subject, {@code txn} and trace id
 * arrive at billing while the state and scope narrow at each hop.
 */
class EdgeToServicesEndToEndTest {
  static final String EDGE = "https://edge.example";
  static final String ORDERS = "https://orders.internal";
  static final String DOMAIN = "shop.trust-domain.example";
  static final int USERS = 4;

  private final List<AutoCloseable> open = new ArrayList<>();
  /** Every service's log lines, as its logger would write them. */
  private final Queue<String> log = new ConcurrentLinkedQueue<>();

  @AfterEach
  void close() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }

  <T extends AutoCloseable> T open(T c) {
    open.add(c);
    return c;
  }

  LoopbackJetty serve(Filter first, Filter second, HttpServlet app) throws Exception {
    return open(new LoopbackJetty(context -> {
      EnumSet<DispatcherType> request = EnumSet.of(DispatcherType.REQUEST);
      context.addFilter(new FilterHolder(first), "/*", request);
      if (second != null) {
        context.addFilter(new FilterHolder(second), "/*", request);
      }
      context.addServlet(new ServletHolder(app), "/*");
    }));
  }

  /** Two instances of a tier, called in turn. */
  static final class RoundRobin {
    private final List<URI> instances;
    private final AtomicInteger next = new AtomicInteger();

    RoundRobin(List<URI> instances) {
      this.instances = instances;
    }

    URI next(String path) {
      return instances.get(Math.floorMod(next.getAndIncrement(), instances.size())).resolve(path);
    }
  }

  void record(String service, String what) {
    log.add(service + " " + CallContext.current().orElseThrow() + " " + what);
  }

  /** Billing (B): answers with what it was told, and by whom. */
  HttpServlet billing(String name) {
    return new HttpServlet() {
      private static final long serialVersionUID = 1L;

      @Override
      protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        InternalToken t = InternalTokenFilter.token(req).orElseThrow();
        record(name, "invoice");
        resp.getWriter().write(String.join(",", t.subject().orElse("-"), t.sessionId(),
            t.get("tenant", String.class).orElse("-"), String.valueOf(t.actors()), String.valueOf(t.stateNames()),
            t.transactionId().orElse("-"), String.valueOf(t.scope()),
            String.valueOf(t.requestContext().getOrDefault(TransactionTokens.TRACE_ID, "-"))));
      }
    };
  }

  /** Orders (A): calls billing with a narrower token. */
  HttpServlet orders(String name, HttpClient toBilling, RoundRobin billing) {
    return new HttpServlet() {
      private static final long serialVersionUID = 1L;

      @Override
      protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        InternalToken t = InternalTokenFilter.token(req).orElseThrow();
        record(name, "order by " + t.token().keyId());
        HttpResponse<String> r = send(toBilling, billing.next("invoice"));
        resp.setStatus(r.statusCode());
        resp.getWriter().write(t.token().keyId() + ";" + t.stateNames() + ";" + t.transactionId().orElse("-") + ";"
            + t.scope() + ";" + r.body());
      }
    };
  }

  /** The edge: a login writes the session; a checkout calls orders. */
  HttpServlet edge(String name, HttpClient toOrders, RoundRobin orders) {
    return new HttpServlet() {
      private static final long serialVersionUID = 1L;

      @Override
      protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        if (req.getRequestURI().endsWith("/login")) {
          HttpSession s = req.getSession();
          s.setAttribute("user", req.getParameter("user"));
          s.setAttribute("tenant", "t-" + req.getParameter("user"));
          s.setAttribute("cart", List.of("book", "pen"));
          s.setAttribute("csrf", "kept-at-the-edge");
          return;
        }
        record(name, "checkout");
        HttpResponse<String> r = send(toOrders, orders.next("order"));
        resp.setStatus(r.statusCode());
        resp.getWriter().write(CallContext.current().orElseThrow().traceId() + ";" + r.body());
      }
    };
  }

  static HttpResponse<String> send(HttpClient client, URI uri) throws IOException {
    try {
      return client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }

  /** The verifier of a service named {@code audience} accepting {@code issuer}, in {@code profile}. */
  static InternalTokenVerifier verifier(TokenProfile profile, String audience, String issuer, KeySource keys) {
    return InternalTokenVerifier.builder().profile(profile)
        .audience(profile == TokenProfile.TXN_TOKEN ? DOMAIN : audience).issuer(issuer, keys).build();
  }

  /** A minter of {@code issuer} in {@code profile}; at the edge with the transactions' scope. */
  static InternalTokenMinter.Builder minter(TokenProfile profile, String issuer, KeySource keys) {
    InternalTokenMinter.Builder b = InternalTokenMinter.builder().keys(keys).issuer(issuer).profile(profile);
    return profile == TokenProfile.TXN_TOKEN ? b.trustDomain(DOMAIN) : b;
  }

  @ParameterizedTest
  @EnumSource(TokenProfile.class)
  @Timeout(300)
  void journeysFlowEdgeToOrdersToBillingThroughAKeyRotationWithoutAFailedCallOneTracePerJourney(TokenProfile profile)
      throws Exception {
    boolean txn = profile == TokenProfile.TXN_TOKEN;
    // The edge's internal signing keys: live, so they can rotate while journeys run.
    Instant start = Instant.now();
    TokenKey edge1 = TokenKey.generate("edge-1", Algorithm.ES256);
    TokenKey edge2 = TokenKey.generate("edge-2", Algorithm.ES256);
    AtomicReference<KeySet> edgeKeys = new AtomicReference<>(KeySet.of(edge1));
    KeySource edgeSource = edgeKeys::get;
    KeySet orderKeys = KeySet.of(TokenKey.generate("orders-1", Algorithm.EDDSA));
    LoopbackJetty edgeJwks = open(new LoopbackJetty(JwksServlet.builder().keys(edgeSource).maxAge(Duration.ofSeconds(1)).build()));
    LoopbackJetty ordersJwks = open(new LoopbackJetty(JwksServlet.builder().keys(orderKeys).build()));

    // Billing: two instances, each with its own keyring of the orders service's JWKS.
    List<URI> billingUris = new ArrayList<>();
    for (int i = 1; i <= 2; i++) {
      Keyring ordersPublic = open(Keyring.builder().jwksUrl(ordersJwks.uri).httpAllowInsecurePlainHttp(true).build());
      InternalTokenFilter in = InternalTokenFilter.builder().verifier(verifier(profile, "billing", ORDERS, ordersPublic))
          .build();
      billingUris.add(serve(in, null, billing("billing-" + i)).root);
    }
    // Orders: two instances, each learning the edge's keys through its own keyring (refreshing
    // as the JWKS max-age of one second asks, within bounds lowered for the test).
    List<URI> ordersUris = new ArrayList<>();
    List<Keyring> ordersKeyrings = new ArrayList<>();
    OutgoingTokens.Builder ordersOutBuilder = OutgoingTokens.builder()
        .minter(minter(profile, ORDERS, orderKeys).algorithm(Algorithm.EDDSA).build()).grant("billing", "tenant");
    OutgoingTokens ordersOut = (txn ? ordersOutBuilder.scope("billing", "checkout") : ordersOutBuilder).build();
    for (int i = 1; i <= 2; i++) {
      Keyring edgePublic = open(Keyring.builder().jwksUrl(edgeJwks.uri).httpAllowInsecurePlainHttp(true)
          .httpRefreshBounds(Duration.ofMillis(200), Duration.ofSeconds(1)).build());
      ordersKeyrings.add(edgePublic);
      InternalTokenFilter in = InternalTokenFilter.builder().verifier(verifier(profile, "orders", EDGE, edgePublic))
          .build();
      HttpClient toBilling = ordersOut.httpClient(HttpClient.newHttpClient(), "billing");
      ordersUris.add(serve(in, null, orders("orders-" + i, toBilling, new RoundRobin(billingUris))).root);
    }
    // The edge: two instances sharing the browser-session keys and the internal signing keys.
    KeySet sessionKeys = KeySet.of(TokenKey.generate("browser-1", Algorithm.DIR_A256GCM));
    InternalTokenMinter.Builder edgeMinter = minter(profile, EDGE, edgeSource);
    OutgoingTokens edgeOut = OutgoingTokens.builder().minter((txn ? edgeMinter.scope("checkout", "browse") : edgeMinter)
        .build()).grant("orders", "tenant", "cart").build();
    List<URI> edgeUris = new ArrayList<>();
    for (int i = 1; i <= 2; i++) {
      SessionlessFilter sessions = SessionlessFilter.builder().keys(sessionKeys).issuer(EDGE).audience("shop").build();
      EdgeContextFilter context = EdgeContextFilter.builder().subjectAttribute("user").build();
      HttpClient toOrders = edgeOut.httpClient(HttpClient.newHttpClient(), "orders");
      edgeUris.add(serve(sessions, context, edge("edge-" + i, toOrders, new RoundRobin(ordersUris))).root);
    }

    // Users walk round-robin across the edge instances until the rotation is done and then some.
    RoundRobin edges = new RoundRobin(edgeUris);
    CountDownLatch rotated = new CountDownLatch(1);
    CountDownLatch warmedUp = new CountDownLatch(USERS * 3);
    Map<String, String> journeys = new ConcurrentHashMap<>();   // trace id -> user
    Queue<String> failures = new ConcurrentLinkedQueue<>();
    Set<String> kidsSeen = ConcurrentHashMap.newKeySet();
    ExecutorService users = Executors.newFixedThreadPool(USERS);
    List<Future<?>> running = new ArrayList<>();
    for (int u = 0; u < USERS; u++) {
      String user = "user" + u;
      running.add(users.submit(() -> {
        HttpClient browser = HttpClient.newBuilder().cookieHandler(new LoopbackCookies()).build();
        assertEquals(200, send(browser, edges.next("login?user=" + user)).statusCode());
        int afterRotation = 0;
        while (afterRotation < 5) {
          if (rotated.getCount() == 0) {
            afterRotation++;
          }
          HttpResponse<String> r = send(browser, edges.next("checkout"));
          if (r.statusCode() != 200) {
            failures.add(r.statusCode() + " " + r.body());
            continue;
          }
          // trace; kid; state, txn and scope at orders; billing's answer
          String[] parts = r.body().split(";", 6);
          journeys.put(parts[0], user);
          kidsSeen.add(parts[1]);
          warmedUp.countDown();
          assertEquals("[tenant, cart]", parts[2], "the edge's grant: csrf stays at the edge");
          String atBilling = ",t-" + user + ",[" + ORDERS + ", " + EDGE + "],[tenant],";
          assertTrue(parts[5].startsWith(user + ",") && parts[5].contains(atBilling), parts[5]);
          if (txn) {
            assertEquals(36, parts[3].length(), "a txn at orders: " + parts[3]);
            assertEquals("[checkout, browse]", parts[4], "the edge's scope");
            assertTrue(parts[5].endsWith(atBilling + parts[3] + ",[checkout]," + parts[0]),
                "the same txn at billing, the scope narrowed by orders, the edge's trace id in rctx: " + parts[5]);
          } else {
            assertTrue(parts[5].endsWith(atBilling + "-,[],-"), parts[5]);
          }
        }
        return null;
      }));
    }

    // Rotation, step 1, once journeys run: publish edge-2 ahead of use; wait until both orders
    // instances have it.
    // (The waits below are guards against a hang, not timing: a broken run fails instead of waiting forever.)
    Instant warmUpGuard = Instant.now().plus(Duration.ofMinutes(2));
    while (!warmedUp.await(100, TimeUnit.MILLISECONDS)) {
      for (Future<?> f : running) {
        if (f.isDone()) {
          f.get();   // a user that stopped early: its failure, now
        }
      }
      assertTrue(Instant.now().isBefore(warmUpGuard), "journeys before the rotation: " + failures);
    }
    Instant now = Instant.now();
    edgeKeys.set(KeySet.of(edge1, edge2.withLifecycle(now, now.plus(Duration.ofDays(1)), null, null)));
    Instant guard = Instant.now().plus(Duration.ofMinutes(2));
    for (Keyring k : ordersKeyrings) {
      while (k.current().key("edge-2").isEmpty()) {
        assertTrue(Instant.now().isBefore(guard), "the orders instances never learned edge-2");
        Thread.sleep(20);   // polling a condition, not timing: the keyring refreshes on its own thread
      }
    }
    // Step 2: edge-2 signs from now on; edge-1 retires but keeps verifying the tokens in flight.
    now = Instant.now();
    edgeKeys.set(KeySet.of(edge1.withLifecycle(null, start.minusSeconds(1), now, now.plus(Duration.ofHours(1))),
        edge2.withLifecycle(now.minusSeconds(1), now.minusSeconds(1), null, null)));
    rotated.countDown();
    for (Future<?> f : running) {
      f.get();
    }
    users.shutdown();

    assertEquals(List.of(), List.copyOf(failures), "zero failed calls");
    assertEquals(Set.of("edge-1", "edge-2"), kidsSeen, "journeys before and after the rotation");
    // Each journey's lines: one at the edge, one at orders, one at billing, all with its trace id.
    Map<String, List<String>> byTrace = log.stream().collect(Collectors.groupingBy(l -> l.split(" ")[1]));
    for (Map.Entry<String, String> j : journeys.entrySet()) {
      List<String> lines = byTrace.get("trace=" + j.getKey());
      assertEquals(3, lines == null ? 0 : lines.size(), j.getKey() + ": " + lines);
      assertEquals(Set.of("edge", "orders", "billing"),
          lines.stream().map(l -> l.substring(0, l.indexOf('-'))).collect(Collectors.toSet()), String.valueOf(lines));
      String sid = lines.get(0).split(" ")[2];
      assertTrue(sid.startsWith("sid=") && sid.length() > 4 && lines.stream().allMatch(l -> l.contains(" " + sid + " ")),
          "one session id too: " + lines);
    }
    assertEquals(log.size(), journeys.size() * 3, "no line without its journey");
    assertTrue(journeys.size() >= USERS * 5, "journeys: " + journeys.size());
    Set<String> instancesUsed = log.stream().map(l -> l.split(" ")[0]).collect(Collectors.toSet());
    assertEquals(Set.of("edge-1", "edge-2", "orders-1", "orders-2", "billing-1", "billing-2"), instancesUsed);
  }
}
