package dev.sessionless.spring.boot.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.security.authentication.AuthenticationTrustResolverImpl;
import org.springframework.security.authentication.RememberMeAuthenticationToken;
import org.springframework.security.authentication.TestingAuthenticationToken;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.authority.FactorGrantedAuthority;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;

/** An Authentication as plain values and back: what survives, and what never upgrades. */
class AuthenticationValuesTest {
  private static Authentication roundTrip(Authentication a) {
    return AuthenticationValues.read(AuthenticationValues.write(a));
  }

  @Test
  void aPasswordLoginComesBackWithItsUserDetailsAuthoritiesAndFactorTimes() {
    Instant at = Instant.parse("2026-11-23T10:00:00Z");
    List<GrantedAuthority> authorities = List.of(AuthorityUtils.createAuthorityList("ROLE_USER").get(0),
        FactorGrantedAuthority.withAuthority(FactorGrantedAuthority.PASSWORD_AUTHORITY).issuedAt(at).build());
    UserDetails user = User.withUsername("alice").password("{noop}secret").authorities(authorities).build();
    Authentication back = roundTrip(UsernamePasswordAuthenticationToken.authenticated(user, "secret", authorities));
    assertInstanceOf(UsernamePasswordAuthenticationToken.class, back);
    assertTrue(back.isAuthenticated());
    assertEquals("alice", back.getName());
    assertEquals("alice", ((UserDetails) back.getPrincipal()).getUsername());
    assertNull(back.getCredentials(), "credentials never travel");
    FactorGrantedAuthority factor = back.getAuthorities().stream().filter(FactorGrantedAuthority.class::isInstance)
        .map(FactorGrantedAuthority.class::cast).findFirst().orElseThrow();
    assertEquals(at, factor.getIssuedAt());
    assertEquals(List.of("ROLE_USER", "FACTOR_PASSWORD"),
        back.getAuthorities().stream().map(GrantedAuthority::getAuthority).collect(Collectors.toList()));
  }

  @Test
  void aRememberMeLoginNeverComesBackAsAFullLogin() {
    Authentication back = roundTrip(new RememberMeAuthenticationToken("key", "alice",
        AuthorityUtils.createAuthorityList("ROLE_USER")));
    assertTrue(new AuthenticationTrustResolverImpl().isRememberMe(back));
    assertEquals("alice", back.getName());
  }

  @Test
  void anyOtherLoginComesBackAsARestoredAuthenticationNamingItsType() {
    TestingAuthenticationToken original = new TestingAuthenticationToken("carol", "pw", "ROLE_ADMIN");
    Authentication back = roundTrip(original);
    RestoredAuthentication restored = assertInstanceOf(RestoredAuthentication.class, back);
    assertEquals(TestingAuthenticationToken.class.getName(), restored.getType());
    assertEquals("carol", restored.getName());
    assertTrue(restored.isAuthenticated());
    assertNull(restored.getCredentials());
  }

  @Test
  void storedValuesAreOnlyJdkValueTypes() {
    Map<String, Object> values = AuthenticationValues.write(UsernamePasswordAuthenticationToken.authenticated(
        "dave", null, AuthorityUtils.createAuthorityList("ROLE_USER")));
    assertEquals(Map.of("name", "dave", "authorities", List.of("ROLE_USER"), "type", "password"), values);
  }

  @Test
  void somethingThatIsNotAnAuthenticationReadsAsNone() {
    assertNull(AuthenticationValues.read("alice"));
    assertNull(AuthenticationValues.read(Map.of("name", "alice")));
  }
}
