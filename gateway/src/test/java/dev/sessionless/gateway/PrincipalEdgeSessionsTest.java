package dev.sessionless.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.propagation.EdgeSession;
import java.security.Principal;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebSession;
import org.springframework.web.server.session.InMemoryWebSessionStore;
import reactor.core.publisher.Mono;

/** The default {@link EdgeSessionResolver}: which requests have a session, and what it says. */
@Timeout(60)
class PrincipalEdgeSessionsTest {
  private static final Principal ALICE = UsernamePasswordAuthenticationToken.authenticated("alice", "n/a",
      AuthorityUtils.createAuthorityList("ROLE_USER"));

  private static WebSession started() {
    WebSession s = new InMemoryWebSessionStore().createWebSession().block();
    s.start();
    s.getAttributes().put("plan", "gold");
    s.getAttributes().put("cart", "3");
    s.getAttributes().put("user", "alice@example.com");
    return s;
  }

  private static ServerWebExchange exchange(Principal principal, WebSession session) {
    MockServerWebExchange e = MockServerWebExchange.builder(MockServerHttpRequest.get("/x")).session(session).build();
    return principal == null ? e : e.mutate().principal(Mono.just(principal)).build();
  }

  private static Optional<EdgeSession> resolve(String subjectAttribute, ServerWebExchange exchange, String... names) {
    return EdgeSessionResolver.principalAndWebSession(subjectAttribute).resolve(exchange, Set.of(names))
        .blockOptional();
  }

  @Test
  void aLoginGivesTheSubjectADigestOfTheSessionIdItsIdleDeadlineAndTheNamedValuesOnly() {
    WebSession web = started();
    EdgeSession s = resolve(null, exchange(ALICE, web), "plan", "csrf").orElseThrow();
    assertEquals(Optional.of("alice"), s.subject());
    assertTrue(s.sessionId().startsWith("ws-"), s.sessionId());
    assertFalse(s.sessionId().contains(web.getId()), "the cookie's value never becomes the sid");
    assertEquals(s.sessionId(), resolve(null, exchange(ALICE, web)).orElseThrow().sessionId(), "stable per session");
    assertEquals(Optional.of(web.getLastAccessTime().plus(web.getMaxIdleTime())), s.expiresAt());
    assertEquals(Set.of("plan"), s.stateNames());
    assertTrue(s.authTime().isEmpty());
  }

  @Test
  void theSubjectAttributeWinsOverThePrincipalAndMakesASessionWithoutOne() {
    assertEquals(Optional.of("alice@example.com"),
        resolve("user", exchange(ALICE, started())).orElseThrow().subject());
    assertEquals(Optional.of("alice@example.com"), resolve("user", exchange(null, started())).orElseThrow().subject());
    assertEquals(Optional.of("alice"), resolve("missing", exchange(ALICE, started())).orElseThrow().subject());
  }

  @Test
  void noLoginAnAnonymousLoginOrAnUnauthenticatedOneIsNoSession() {
    assertTrue(resolve(null, exchange(null, started())).isEmpty());
    Principal anonymous = new AnonymousAuthenticationToken("key", "anonymousUser",
        AuthorityUtils.createAuthorityList("ROLE_ANONYMOUS"));
    assertTrue(resolve(null, exchange(anonymous, started())).isEmpty());
    Principal unauthenticated = UsernamePasswordAuthenticationToken.unauthenticated("alice", "pw");
    assertTrue(resolve(null, exchange(unauthenticated, started())).isEmpty());
  }

  @Test
  void aLoginWithoutAStartedSessionGetsARandomIdForThisRequestAlone() {
    WebSession notStarted = new InMemoryWebSessionStore().createWebSession().block();
    EdgeSession a = resolve(null, exchange(ALICE, notStarted), "plan").orElseThrow();
    EdgeSession b = resolve(null, exchange(ALICE, notStarted), "plan").orElseThrow();
    assertTrue(a.sessionId().startsWith("rq-"), a.sessionId());
    assertNotEquals(a.sessionId(), b.sessionId());
    assertEquals(Set.of(), a.stateNames());
    assertTrue(a.expiresAt().isEmpty());
  }

  @Test
  void perRequestIdsAre128RandomBitsInBase64urlAndNeverRepeat() {
    WebSession notStarted = new InMemoryWebSessionStore().createWebSession().block();
    ServerWebExchange exchange = exchange(ALICE, notStarted);
    EdgeSessionResolver resolver = EdgeSessionResolver.principalAndWebSession(null);
    Set<String> seen = new HashSet<>();
    Pattern shape = Pattern.compile("rq-[A-Za-z0-9_-]{21}[AQgw]");
    for (int i = 0; i < 2_000; i++) {
      String id = resolver.resolve(exchange, Set.of()).block().sessionId();
      // 16 bytes are 22 base64url characters without padding; the last carries 2 bits and 4 zeros.
      assertTrue(shape.matcher(id).matches(), id);
      assertTrue(seen.add(id), "repeated: " + id);
    }
  }
}
