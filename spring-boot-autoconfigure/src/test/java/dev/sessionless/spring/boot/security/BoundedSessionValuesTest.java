package dev.sessionless.spring.boot.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.lang.reflect.Proxy;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextImpl;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.web.csrf.DefaultCsrfToken;

/** What the Spring Security adapters keep of client-controlled text, and when they keep nothing. */
@Timeout(30)
class BoundedSessionValuesTest {
  @Test
  void anAuthenticationFailureMessageOfTheClientsIsStoredCutToItsBound() {
    String attacker = "x".repeat(20_000);
    AuthenticationException e = new OAuth2AuthenticationException(new OAuth2Error("access_denied", attacker, null),
        attacker);
    Map<String, Object> stored = AuthenticationFailureValues.write(e);
    String message = (String) stored.get("message");
    assertEquals(AuthenticationFailureValues.MAX_MESSAGE_LENGTH, message.length(), "cut, ending in an ellipsis");
    assertTrue(message.endsWith("\u2026"));
    assertEquals("Bad credentials", AuthenticationFailureValues.write(
        new org.springframework.security.authentication.BadCredentialsException("Bad credentials")).get("message"),
        "a short message is kept as it is");
  }

  @Test
  void aMalformedStoredFailureFailsSoft() {
    Object read = AuthenticationFailureValues.read(Map.of("kind", "locked", "message", 42));
    assertEquals("", ((AuthenticationException) read).getMessage());
    assertNull(AuthenticationFailureValues.read(Map.of("kind", "nonsense")));
  }

  /** A request that fails the test if the session is touched, and a committed response. */
  private static HttpServletRequest untouchable() {
    return (HttpServletRequest) Proxy.newProxyInstance(HttpServletRequest.class.getClassLoader(),
        new Class<?>[] {HttpServletRequest.class}, (p, m, a) -> {
          throw new AssertionError("the request was used after the response was committed: " + m.getName());
        });
  }

  private static HttpServletResponse committed() {
    return (HttpServletResponse) Proxy.newProxyInstance(HttpServletResponse.class.getClassLoader(),
        new Class<?>[] {HttpServletResponse.class}, (p, m, a) -> {
          if (m.getName().equals("isCommitted")) {
            return true;
          }
          throw new AssertionError("unexpected " + m.getName());
        });
  }

  @Test
  void savingTheContextOrTheCsrfTokenAfterTheResponseIsCommittedIsSkipped() {
    SecurityContextImpl context = new SecurityContextImpl(UsernamePasswordAuthenticationToken.authenticated("alice",
        null, AuthorityUtils.createAuthorityList("ROLE_USER")));
    new SessionlessSecurityContextRepository().saveContext(context, untouchable(), committed());
    new SessionlessCsrfTokenRepository().saveToken(new DefaultCsrfToken("X-CSRF-TOKEN", "_csrf", "t"), untouchable(),
        committed());
  }
}
