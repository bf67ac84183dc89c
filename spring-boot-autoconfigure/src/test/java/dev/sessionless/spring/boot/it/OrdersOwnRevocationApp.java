package dev.sessionless.spring.boot.it;

import dev.sessionless.core.RevocationStore;
import java.time.Clock;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** {@link OrdersApp} with a revocation store of the application's own (no sessionless.revocation.*). */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
@Import(OrdersApp.Orders.class)
public class OrdersOwnRevocationApp {
  @Bean
  RevocationStore ownRevocations() {
    return RevocationStore.inMemory(Clock.systemUTC());
  }
}
