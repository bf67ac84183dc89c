package dev.sessionless.propagation.reactive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.propagation.InternalTokenMinter;
import dev.sessionless.propagation.InternalTokenVerifier;
import dev.sessionless.propagation.OutgoingTokens;
import dev.sessionless.propagation.spring.InternalTokenExchangeFilter;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.Principal;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebHandler;
import reactor.core.publisher.Mono;

/**
 * What the WebFlux edge puts in a token about the browser's session, on real Reactor Netty
 * servers over loopback with WebFlux's own {@code WebSession} (whose id is the {@code SESSION}
 * cookie's value): never the cookie's value, and no "login" for Spring Security's anonymous or an
 * unauthenticated principal.
 */
@Timeout(60)
class EdgeContextWebFilterSessionTest {
  static final KeySet EDGE_KEYS = KeySet.of(TokenKey.generate("edge-1", Algorithm.ES256));
  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }

  /** The edge, with {@code principal} as every exchange's principal (none if null); /login starts a session. */
  WebClient edge(Principal principal) {
    WebHandler echo = e -> ReactiveCallContext.token().flatMap(t -> e.getResponse().writeWith(Mono.just(e.getResponse()
        .bufferFactory().wrap((t.sessionId() + "|" + t.subject().orElse("-")).getBytes(StandardCharsets.UTF_8)))));
    LoopbackNetty orders = new LoopbackNetty(echo, InternalTokenWebFilter.builder().verifier(InternalTokenVerifier
        .builder().audience("orders").issuer("https://edge.example", EDGE_KEYS).build()).build());
    open.add(orders);
    OutgoingTokens out = OutgoingTokens.builder().minter(InternalTokenMinter.builder().keys(EDGE_KEYS)
        .issuer("https://edge.example").build()).grant("orders").build();
    WebClient toOrders = LoopbackNetty.client(orders.root, new InternalTokenExchangeFilter(out, "orders"));
    WebHandler page = e -> e.getRequest().getPath().value().equals("/login")
        ? e.getSession().flatMap(s -> {
          s.getAttributes().put("user", "alice");
          return e.getResponse().setComplete();
        })
        : toOrders.get().uri("/orders").retrieve().bodyToMono(String.class).flatMap(b -> e.getResponse()
            .writeWith(Mono.just(e.getResponse().bufferFactory().wrap(b.getBytes(StandardCharsets.UTF_8)))));
    WebFilter security = (e, chain) -> chain.filter(principal == null ? e : e.mutate().principal(Mono.just(principal)).build());
    LoopbackNetty edge = new LoopbackNetty(page, security, EdgeContextWebFilter.builder().subjectAttribute("user").build());
    open.add(edge);
    return LoopbackNetty.client(edge.root);
  }

  static String sha256(String s) throws Exception {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(
        MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void internalTokenCarriesADigestOfTheWebSessionIdNeverTheSessionCookie() throws Exception {
    WebClient browser = edge(null);
    String setCookie = LoopbackNetty.get(browser, "/login", null).getHeaders().getFirst(HttpHeaders.SET_COOKIE);
    assertNotNull(setCookie, "the login started WebFlux's own session");
    String cookie = setCookie.substring(0, setCookie.indexOf(';'));
    String cookieValue = cookie.substring(cookie.indexOf('=') + 1);
    ResponseEntity<String> r = LoopbackNetty.get(browser, "/orders", cookie);
    assertEquals(200, r.getStatusCode().value(), r.getBody());
    assertFalse(r.getBody().contains(cookieValue), "the SESSION cookie's value left the edge: " + r.getBody());
    assertEquals("ws-" + sha256(cookieValue) + "|alice", r.getBody(), "a stable digest, the gateway's form");
    assertEquals(r.getBody(), LoopbackNetty.get(browser, "/orders", cookie).getBody(), "stable per session");
  }

  @Test
  void springSecuritysAnonymousAuthenticationIsNotALoginAtTheEdge() {
    WebClient browser = edge(new AnonymousAuthenticationToken("key", "anonymousUser",
        AuthorityUtils.createAuthorityList("ROLE_ANONYMOUS")));
    ResponseEntity<String> r = LoopbackNetty.get(browser, "/orders", null);
    assertEquals(401, r.getStatusCode().value(), "no token on behalf of 'anonymousUser': " + r.getBody());
  }

  @Test
  void anUnauthenticatedPrincipalIsNotALoginAtTheEdge() {
    WebClient browser = edge(UsernamePasswordAuthenticationToken.unauthenticated("mallory", "guess"));
    ResponseEntity<String> r = LoopbackNetty.get(browser, "/orders", null);
    assertEquals(401, r.getStatusCode().value(), "no token for a login that did not succeed: " + r.getBody());
  }
}
