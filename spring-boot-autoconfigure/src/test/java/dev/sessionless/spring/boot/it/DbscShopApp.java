package dev.sessionless.spring.boot.it;

import dev.sessionless.devicebinding.servlet.DeviceBindingFilter;
import dev.sessionless.spring.boot.DeviceBindingFilterCustomizer;
import dev.sessionless.testing.FakeClock;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.security.Principal;
import java.time.Instant;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Spring Security's default configuration with DBSC from the auto-configuration: the page after
 * login offers registration. The DBSC filter's clock is the test's (one per JVM, shared by the
 * instances), through a {@link DeviceBindingFilterCustomizer}.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
@Import(DbscShopApp.Shop.class)
public class DbscShopApp {
  /** The clock of every instance's DBSC filter. */
  public static final FakeClock CLOCK = new FakeClock(Instant.parse("2026-11-28T12:00:00Z"));

  /** Gives the filter the test's clock. */
  @Bean
  DeviceBindingFilterCustomizer testClock() {
    return b -> b.clock(CLOCK);
  }

  /** The shop's pages; every one needs a login (Boot's default security). */
  @RestController
  public static class Shop {
    @GetMapping("/home")
    public String home(Principal user, HttpServletRequest request, HttpServletResponse response) {
      DeviceBindingFilter.offerRegistration(request, response);
      return "hello " + user.getName() + " bound=" + DeviceBindingFilter.isBound(request);
    }
  }
}
