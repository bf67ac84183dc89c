package dev.sessionless.spring.boot.it;

import dev.sessionless.core.RevocationStore;
import java.time.Clock;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;

/**
 * {@link RevocationApp} with two revocation stores of the application's own and neither marked
 * primary, as when a second one is added for some other purpose: which one revokes sessions?
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
@Import({ShopApp.Shop.class, RevocationApp.Account.class})
public class TwoRevocationStoresApp {
  @Bean
  RevocationStore auditRevocations() {
    return RevocationStore.inMemory(Clock.systemUTC());
  }

  @Bean
  RevocationStore sessionRevocations() {
    return RevocationStore.inMemory(Clock.systemUTC());
  }

  @Bean
  InMemoryUserDetailsManager users() {
    return new RevocationApp().users();
  }
}
