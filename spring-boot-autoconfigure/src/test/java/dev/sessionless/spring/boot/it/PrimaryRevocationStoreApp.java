package dev.sessionless.spring.boot.it;

import dev.sessionless.core.RevocationStore;
import java.time.Clock;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;

/** {@link TwoRevocationStoresApp}'s two stores, {@code sessionRevocations} marked {@code @Primary}. */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
@Import({ShopApp.Shop.class, RevocationApp.Account.class})
public class PrimaryRevocationStoreApp {
  @Bean
  @Primary
  RevocationStore sessionRevocations() {
    return RevocationStore.inMemory(Clock.systemUTC());
  }

  @Bean
  RevocationStore auditRevocations() {
    return RevocationStore.inMemory(Clock.systemUTC());
  }

  @Bean
  InMemoryUserDetailsManager users() {
    return new RevocationApp().users();
  }
}
