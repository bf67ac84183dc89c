package dev.sessionless.spring.boot.it;

import java.util.stream.Collectors;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.oauth2.client.authentication.OAuth2AuthenticationToken;
import org.springframework.security.oauth2.core.oidc.user.OidcUser;
import org.springframework.security.oauth2.core.oidc.user.OidcUserAuthority;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** The shop with OAuth2/OIDC login (Boot's own chain for client registrations) and a page about the user. */
@Configuration(proxyBeanMethods = false)
@Import({ShopApp.class, OAuth2App.Me.class})
public class OAuth2App {
  /** What the restored login says about the user. */
  @RestController
  public static class Me {
    @GetMapping("/me")
    public String me(@AuthenticationPrincipal OidcUser user, OAuth2AuthenticationToken login) {
      return String.join("|", login.getAuthorizedClientRegistrationId(), user.getName(), user.getSubject(),
          user.getEmail(), user.getFullName(), user.getIdToken().getIssuer().toString(),
          String.valueOf(user.getIdToken().getExpiresAt() != null),
          login.getAuthorities().stream().filter(a -> !(a instanceof OidcUserAuthority))
              .map(GrantedAuthority::getAuthority).filter(a -> a.startsWith("SCOPE_")).sorted()
              .collect(Collectors.joining(",")),
          String.valueOf(login.getAuthorities().stream().anyMatch(a -> a instanceof OidcUserAuthority)));
    }
  }
}
