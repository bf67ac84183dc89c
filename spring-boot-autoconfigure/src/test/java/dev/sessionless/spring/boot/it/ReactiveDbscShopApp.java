package dev.sessionless.spring.boot.it;

import dev.sessionless.devicebinding.webflux.DeviceBindingWebFilter;
import dev.sessionless.spring.boot.DeviceBindingWebFilterCustomizer;
import dev.sessionless.testing.FakeClock;
import java.security.Principal;
import java.time.Instant;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * A Boot WebFlux application with Spring Security's default reactive configuration and DBSC from
 * the auto-configuration: the page after login offers registration. The DBSC filter's clock is
 * the test's (one per JVM, shared by the instances), through a {@link
 * DeviceBindingWebFilterCustomizer}.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
@Import(ReactiveDbscShopApp.Shop.class)
public class ReactiveDbscShopApp {
  /** The clock of every instance's DBSC filter. */
  public static final FakeClock CLOCK = new FakeClock(Instant.parse("2026-11-28T12:00:00Z"));

  /** Gives the filter the test's clock. */
  @Bean
  DeviceBindingWebFilterCustomizer testClock() {
    return b -> b.clock(CLOCK);
  }

  /** The shop's pages; every one needs a login (Spring Security's reactive default). */
  @RestController
  public static class Shop {
    // readme-boot-webflux:start
    @GetMapping("/home")
    public Mono<String> home(Principal user, ServerWebExchange exchange) {
      return DeviceBindingWebFilter.offerRegistration(exchange)   // Secure-Session-Registration, once
          .thenReturn("hello " + user.getName() + " bound=" + DeviceBindingWebFilter.isBound(exchange));
    }
    // readme-boot-webflux:end
  }
}
