package dev.sessionless.spring.boot.it;

import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.oauth2.core.oidc.user.OidcUser;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** The reactive shop with OAuth2/OIDC login (Boot's own reactive chain for client registrations). */
@Configuration(proxyBeanMethods = false)
@Import({ReactiveShopApp.class, ReactiveOAuth2App.Me.class})
public class ReactiveOAuth2App {
  /** What the restored login says about the user. */
  @RestController
  public static class Me {
    @GetMapping("/me")
    public String me(@AuthenticationPrincipal OidcUser user) {
      return String.join("|", user.getName(), user.getSubject(), user.getEmail(),
          user.getIdToken().getIssuer().toString());
    }
  }
}
