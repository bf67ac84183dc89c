package dev.sessionless.propagation.reactive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.propagation.InternalTokenMinter;
import dev.sessionless.propagation.InternalTokenVerifier;
import dev.sessionless.propagation.OutgoingTokens;
import dev.sessionless.propagation.spring.InternalTokenExchangeFilter;
import dev.sessionless.webflux.SessionlessWebSessionManager;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebHandler;
import reactor.core.publisher.Mono;

/**
 * The WebFlux edge carries the login time as the servlet edge does, with no setting: an edge on
 * real Reactor Netty keeping its browser session in the token-backed {@code WebSession}, a login
 * marked with {@code SessionlessWebSessionManager.loggedIn}, and a service behind it that reports
 * the {@code auth_time} of the internal token it received.
 */
@Timeout(60)
class EdgeContextWebFilterAuthTimeTest {
  static final String EDGE = "https://edge.example";
  static final KeySet EDGE_KEYS = KeySet.of(TokenKey.generate("edge-1", Algorithm.ES256));
  static final KeySet SESSION_KEYS = KeySet.of(TokenKey.generate("session-1", Algorithm.DIR_A256GCM));
  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }

  static Mono<Void> write(ServerWebExchange e, String body) {
    return e.getResponse().writeWith(Mono.just(e.getResponse().bufferFactory().wrap(body.getBytes(StandardCharsets.UTF_8))));
  }

  /** The edge: {@code /login} logs "alice" in and answers the session's auth_time (epoch seconds); {@code /orders} calls orders. */
  WebClient edge() {
    WebHandler echo = e -> ReactiveCallContext.token()
        .flatMap(t -> write(e, t.authTime().map(a -> String.valueOf(a.getEpochSecond())).orElse("none")));
    LoopbackNetty orders = new LoopbackNetty(echo, InternalTokenWebFilter.builder().verifier(InternalTokenVerifier
        .builder().audience("orders").issuer(EDGE, EDGE_KEYS).build()).build());
    open.add(orders);
    OutgoingTokens out = OutgoingTokens.builder().minter(InternalTokenMinter.builder().keys(EDGE_KEYS).issuer(EDGE)
        .build()).grant("orders").build();
    WebClient toOrders = LoopbackNetty.client(orders.root, new InternalTokenExchangeFilter(out, "orders"));
    WebHandler page = e -> e.getRequest().getPath().value().equals("/login")
        ? e.getSession().flatMap(s -> {
          SessionlessWebSessionManager.loggedIn(s, "alice");
          s.getAttributes().put("user", "alice");
          return write(e, String.valueOf(SessionlessWebSessionManager.authTime(s).orElseThrow().getEpochSecond()));
        })
        : toOrders.get().uri("/orders").retrieve().bodyToMono(String.class).flatMap(b -> write(e, b));
    SessionlessWebSessionManager sessions = SessionlessWebSessionManager.builder().keys(SESSION_KEYS).issuer(EDGE)
        .audience("edge").build();
    LoopbackNetty edge = LoopbackNetty.withSessions(sessions, page,
        EdgeContextWebFilter.builder().subjectAttribute("user").build()); // no authTimeAttribute: the default
    open.add(edge);
    return LoopbackNetty.client(edge.root);
  }

  @Test
  void internalTokensCarryTheTokenSessionsLoginTimeWithNoSetting() {
    WebClient browser = edge();
    ResponseEntity<String> login = LoopbackNetty.get(browser, "/login", null);
    assertEquals(200, login.getStatusCode().value(), login.getBody());
    List<String> setCookies = login.getHeaders().get(HttpHeaders.SET_COOKIE);
    assertNotNull(setCookies, "the login wrote the session cookie");
    String cookie = setCookies.stream().map(c -> c.substring(0, c.indexOf(';'))).collect(Collectors.joining("; "));

    ResponseEntity<String> orders = LoopbackNetty.get(browser, "/orders", cookie);
    assertEquals(200, orders.getStatusCode().value(), orders.getBody());
    assertEquals(login.getBody(), orders.getBody(), "the internal token's auth_time is the session's login time");
  }

  @Test
  void theDefaultAttributeIsTheSessionManagersOwn() {
    assertEquals(SessionlessWebSessionManager.AUTH_TIME_ATTRIBUTE, EdgeContextWebFilter.SESSION_MANAGER_AUTH_TIME_ATTRIBUTE);
  }
}
