package dev.sessionless.spring.boot.it;

import dev.sessionless.spring.boot.SessionlessSessions;
import java.security.Principal;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The shop (Spring Security's default configuration) with two users and a "log out everywhere"
 * button, as an application would offer after a password change.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
@Import({ShopApp.Shop.class, RevocationApp.Account.class})
public class RevocationApp {
  @Bean
  InMemoryUserDetailsManager users() {
    return new InMemoryUserDetailsManager(
        User.withUsername("alice").password("{noop}secret").roles("USER").build(),
        User.withUsername("bob").password("{noop}secret").roles("USER").build());
  }

  /** The account page's action. */
  @RestController
  public static class Account {
    private final SessionlessSessions sessions;

    public Account(SessionlessSessions sessions) {
      this.sessions = sessions;
    }

    @PostMapping("/account/logout-everywhere")
    public String logOutEverywhere(Principal user) {
      sessions.logOutEverywhere(user.getName());
      return "done";
    }
  }
}
