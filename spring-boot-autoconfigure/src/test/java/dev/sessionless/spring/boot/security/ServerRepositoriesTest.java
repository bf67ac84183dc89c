package dev.sessionless.spring.boot.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextImpl;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.oauth2.core.endpoint.OAuth2AuthorizationRequest;
import org.springframework.security.web.server.csrf.CsrfToken;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebSession;
import org.springframework.web.server.session.InMemoryWebSessionStore;

/**
 * The reactive repositories on WebFlux's own in-memory {@code WebSession}: what they store is
 * plain values (what a token session can carry), what they read back, and when the session id
 * changes.
 */
@Timeout(30)
class ServerRepositoriesTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private final WebSession session = new InMemoryWebSessionStore().createWebSession().block(WAIT);

  private ServerWebExchange exchange(MockServerHttpRequest request) {
    return MockServerWebExchange.builder(request).session(session).build();
  }

  private ServerWebExchange get(String url) {
    return exchange(MockServerHttpRequest.get(url).accept(MediaType.TEXT_HTML, MediaType.ALL).build());
  }

  /** Only what JSON reads back: strings, numbers, booleans, lists and maps of them. */
  static void assertPlain(Object value) {
    if (value == null || value instanceof String || value instanceof Number || value instanceof Boolean) {
      return;
    }
    if (value instanceof List<?> l) {
      l.forEach(ServerRepositoriesTest::assertPlain);
      return;
    }
    if (value instanceof Map<?, ?> m) {
      m.forEach((k, v) -> {
        assertInstanceOf(String.class, k, "map keys are strings");
        assertPlain(v);
      });
      return;
    }
    throw new AssertionError("not a plain value: " + value.getClass().getName() + " " + value);
  }

  private static SecurityContext login(String name) {
    UserDetails user = User.withUsername(name).password("{noop}secret").roles("USER").build();
    return new SecurityContextImpl(UsernamePasswordAuthenticationToken.authenticated(user, "secret",
        user.getAuthorities()));
  }

  @Test
  void aLoginIsStoredAsPlainValuesAndRestoredWithoutCredentials() {
    SessionlessServerSecurityContextRepository repo = new SessionlessServerSecurityContextRepository();
    repo.save(get("/"), login("alice")).block(WAIT);
    Object stored = session.getAttribute(SessionlessServerSecurityContextRepository.ATTRIBUTE);
    assertPlain(stored);
    assertEquals(AuthenticationValues.write(login("alice").getAuthentication()), stored,
        "the same values the servlet repository stores");
    Authentication back = repo.load(get("/")).block(WAIT).getAuthentication();
    assertEquals("alice", back.getName());
    assertInstanceOf(UsernamePasswordAuthenticationToken.class, back);
    assertInstanceOf(UserDetails.class, back.getPrincipal());
    assertNull(back.getCredentials());
    assertEquals(List.of("ROLE_USER"), AuthorityUtils.authorityListToSet(back.getAuthorities()).stream().toList());
  }

  @Test
  void aLoginChangesTheSessionIdSavingTheSameUserAgainDoesNotAndALogoutEndsTheSession() {
    SessionlessServerSecurityContextRepository repo = new SessionlessServerSecurityContextRepository();
    String before = session.getId();
    repo.save(get("/"), login("alice")).block(WAIT);
    String afterLogin = session.getId();
    assertNotEquals(before, afterLogin, "a login gets a new session id (fixation)");
    repo.save(get("/"), login("alice")).block(WAIT);
    assertEquals(afterLogin, session.getId(), "the same user again is no login");
    repo.save(get("/"), login("bob")).block(WAIT);
    String afterSwitch = session.getId();
    assertNotEquals(afterLogin, afterSwitch, "another user is a login");
    assertFalse(session.isExpired());
    repo.save(get("/"), null).block(WAIT);
    assertNull(session.getAttribute(SessionlessServerSecurityContextRepository.ATTRIBUTE));
    assertTrue(session.isExpired(), "a logout ends the session, as on the servlet side");
    assertNull(repo.load(get("/")).block(WAIT), "no user: no context");
  }

  @Test
  void anAnonymousUserIsNeverStored() {
    new SessionlessServerSecurityContextRepository().save(get("/"), new SecurityContextImpl(
        new AnonymousAuthenticationToken("k", "anonymousUser", AuthorityUtils.createAuthorityList("ROLE_ANONYMOUS"))))
        .block(WAIT);
    assertTrue(session.getAttributes().isEmpty());
  }

  @Test
  void aStoredValueOfAnotherShapeCountsAsNoLoginNotAnError() {
    session.getAttributes().put(SessionlessServerSecurityContextRepository.ATTRIBUTE,
        Map.of("name", "alice", "type", "password", "authorities", List.of(), "factors", Map.of("F", "not a time")));
    assertNull(new SessionlessServerSecurityContextRepository().load(get("/")).block(WAIT));
  }

  @Test
  void theCsrfTokenIsStoredAsAStringAndLoadedWithSpringSecuritysNames() {
    SessionlessServerCsrfTokenRepository repo = new SessionlessServerCsrfTokenRepository();
    assertNull(repo.loadToken(get("/")).block(WAIT));
    CsrfToken token = repo.generateToken(get("/")).block(WAIT);
    assertTrue(session.getAttributes().isEmpty(), "generating saves nothing");
    repo.saveToken(get("/"), token).block(WAIT);
    assertEquals(token.getToken(), session.getAttribute(SessionlessServerCsrfTokenRepository.ATTRIBUTE));
    CsrfToken back = repo.loadToken(get("/")).block(WAIT);
    assertEquals(token.getToken(), back.getToken());
    assertEquals("X-CSRF-TOKEN", back.getHeaderName());
    assertEquals("_csrf", back.getParameterName());
    repo.saveToken(get("/"), null).block(WAIT);
    assertTrue(session.getAttributes().isEmpty(), "a null token removes it");
  }

  @Test
  void aPageIsSavedAsItsUrlAndTheRequestBackToItClearsItWithoutContinue() {
    SessionlessServerRequestCache cache = new SessionlessServerRequestCache();
    cache.saveRequest(get("/cart?item=1")).block(WAIT);
    assertEquals("/cart?item=1", session.getAttribute(SessionlessServerRequestCache.ATTRIBUTE));
    assertEquals(URI.create("/cart?item=1&continue"), cache.getRedirectUri(get("/")).block(WAIT));
    assertNull(cache.removeMatchingRequest(get("/cart?item=1")).block(WAIT), "no continue: not the way back");
    assertNull(cache.removeMatchingRequest(get("/other?continue")).block(WAIT), "another page");
    ServerHttpRequest back = cache.removeMatchingRequest(get("/cart?item=1&continue")).block(WAIT);
    assertEquals("item=1", back.getURI().getRawQuery(), "the request goes on without continue");
    assertNull(session.getAttribute(SessionlessServerRequestCache.ATTRIBUTE));
  }

  @Test
  void onlyTheRequestsTheServletSideSavesAreSaved() {
    SessionlessServerRequestCache cache = new SessionlessServerRequestCache();
    List<ServerWebExchange> notSaved = List.of(
        exchange(MockServerHttpRequest.post("/form").build()),
        get("/favicon.ico"),
        exchange(MockServerHttpRequest.get("/api").accept(MediaType.APPLICATION_JSON).build()),
        exchange(MockServerHttpRequest.get("/x").header("X-Requested-With", "XMLHttpRequest").build()),
        exchange(MockServerHttpRequest.get("/events").accept(MediaType.TEXT_EVENT_STREAM).build()),
        exchange(MockServerHttpRequest.get("/ws").header(HttpHeaders.UPGRADE, "websocket").build()));
    for (ServerWebExchange e : notSaved) {
      cache.saveRequest(e).block(WAIT);
      assertFalse(session.getAttributes().containsKey(SessionlessServerRequestCache.ATTRIBUTE),
          e.getRequest().getMethod() + " " + e.getRequest().getURI());
    }
    cache.saveRequest(exchange(MockServerHttpRequest.get("/any").build())).block(WAIT);
    assertEquals("/any", session.getAttribute(SessionlessServerRequestCache.ATTRIBUTE), "no Accept header: saved");
  }

  @Test
  void aLongUrlIsSavedAsItsPathAndAnUnsafeStoredValueIsIgnored() {
    SessionlessServerRequestCache cache = new SessionlessServerRequestCache();
    cache.saveRequest(get("/cart?q=" + "x".repeat(SessionlessRequestCache.MAX_URL_LENGTH))).block(WAIT);
    assertEquals("/cart", session.getAttribute(SessionlessServerRequestCache.ATTRIBUTE));
    session.getAttributes().put(SessionlessServerRequestCache.ATTRIBUTE, "//evil.example/");
    assertNull(cache.getRedirectUri(get("/")).block(WAIT), "not a local path: no redirect there");
  }

  @Test
  void theAuthorizationRequestIsKeptAsStringsAndTakenOnlyWithItsState() {
    SessionlessServerAuthorizationRequestRepository repo = new SessionlessServerAuthorizationRequestRepository();
    OAuth2AuthorizationRequest request = OAuth2AuthorizationRequest.authorizationCode()
        .authorizationUri("http://127.0.0.1:1/authorize").clientId("shop").redirectUri("http://127.0.0.1:2/cb")
        .scopes(java.util.Set.of("openid")).state("s1")
        .additionalParameters(Map.of("nonce", "n")).attributes(Map.of("code_verifier", "v", "registration_id", "r"))
        .build();
    repo.saveAuthorizationRequest(request, get("/oauth2/authorization/r")).block(WAIT);
    assertPlain(session.getAttribute(SessionlessServerAuthorizationRequestRepository.ATTRIBUTE));
    assertNull(repo.loadAuthorizationRequest(get("/cb")).block(WAIT), "no state: nothing");
    assertNull(repo.loadAuthorizationRequest(get("/cb?state=other")).block(WAIT), "another state: nothing");
    OAuth2AuthorizationRequest back = repo.removeAuthorizationRequest(get("/cb?state=s1")).block(WAIT);
    assertEquals("s1", back.getState());
    assertEquals("v", back.getAttributes().get("code_verifier"));
    assertEquals("n", back.getAdditionalParameters().get("nonce"));
    assertTrue(session.getAttributes().isEmpty(), "taken once");
  }
}
