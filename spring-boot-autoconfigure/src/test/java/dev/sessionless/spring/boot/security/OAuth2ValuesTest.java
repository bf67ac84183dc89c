package dev.sessionless.spring.boot.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import tools.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.oauth2.client.authentication.OAuth2AuthenticationToken;
import org.springframework.security.oauth2.core.endpoint.OAuth2AuthorizationRequest;
import org.springframework.security.oauth2.core.user.DefaultOAuth2User;
import org.springframework.security.oauth2.core.user.OAuth2User;
import org.springframework.security.oauth2.core.user.OAuth2UserAuthority;

/**
 * OAuth2 state as plain values, through the JSON a token session stores: what survives and what
 * is left out. (OIDC logins end to end: {@code OAuth2LoginTest}.)
 */
class OAuth2ValuesTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static Object throughJson(Object values) throws Exception {
    return JSON.readValue(JSON.writeValueAsString(values), Object.class);
  }

  @Test
  void anAuthorizationRequestComesBackEqualThroughJson() throws Exception {
    OAuth2AuthorizationRequest request = OAuth2AuthorizationRequest.authorizationCode()
        .authorizationUri("https://id.example/authorize").clientId("shop")
        .redirectUri("https://shop.example/login/oauth2/code/id").scopes(Set.of("openid", "email"))
        .state("s-123").additionalParameters(Map.of("nonce", "hashed-nonce", "code_challenge", "c",
            "code_challenge_method", "S256"))
        .attributes(Map.of("registration_id", "id", "nonce", "raw-nonce", "code_verifier", "v"))
        .build();
    Object stored = throughJson(AuthorizationRequestValues.write(request));
    assertEquals(stored, AuthorizationRequestValues.write(request), "a JSON round trip changes nothing");
    OAuth2AuthorizationRequest back = AuthorizationRequestValues.read(stored);
    assertEquals(request.getAuthorizationUri(), back.getAuthorizationUri());
    assertEquals(request.getClientId(), back.getClientId());
    assertEquals(request.getAttributes(), back.getAttributes());
    assertEquals(request.getAdditionalParameters(), back.getAdditionalParameters());
    assertEquals(request.getScopes(), back.getScopes());
    assertEquals(request.getState(), back.getState());
    assertEquals(request.getRedirectUri(), back.getRedirectUri());
  }

  @Test
  void anAuthorizationRequestWithANonStringAttributeIsRefusedNamingIt() {
    OAuth2AuthorizationRequest request = OAuth2AuthorizationRequest.authorizationCode()
        .authorizationUri("https://id.example/authorize").clientId("shop").state("s")
        .attributes(Map.of("tries", 3)).build();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> AuthorizationRequestValues.write(request));
    assertTrue(e.getMessage().contains("attribute 'tries'"), e.getMessage());
  }

  @Test
  void aPlainOAuth2LoginKeepsItsRegistrationNameAndAuthoritiesButNotTheOtherAttributes() throws Exception {
    Map<String, Object> attributes = Map.of("login", "octo", "id", 583231, "avatar_url", "https://a.example/1");
    List<GrantedAuthority> authorities = List.of(new OAuth2UserAuthority("OAUTH2_USER", attributes, "login"),
        new SimpleGrantedAuthority("SCOPE_read:user"));
    OAuth2User user = new DefaultOAuth2User(authorities, attributes, "login");
    Object stored = throughJson(AuthenticationValues.write(new OAuth2AuthenticationToken(user, authorities, "github")));
    assertFalse(stored.toString().contains("avatar"), "only the name attribute is kept: " + stored);

    Authentication back = AuthenticationValues.read(stored);
    OAuth2AuthenticationToken token = assertInstanceOf(OAuth2AuthenticationToken.class, back);
    assertEquals("github", token.getAuthorizedClientRegistrationId());
    assertEquals("octo", token.getName());
    assertEquals(Map.of("login", "octo"), token.getPrincipal().getAttributes());
    assertTrue(token.getAuthorities().stream().anyMatch(a -> a instanceof OAuth2UserAuthority));
    assertTrue(token.getAuthorities().stream().anyMatch(a -> "SCOPE_read:user".equals(a.getAuthority())));
    assertTrue(token.isAuthenticated());
  }
}
