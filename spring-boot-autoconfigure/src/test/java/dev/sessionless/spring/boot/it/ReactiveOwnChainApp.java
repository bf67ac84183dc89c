package dev.sessionless.spring.boot.it;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.userdetails.MapReactiveUserDetailsService;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.web.server.SecurityWebFilterChain;

/** The reactive shop with the application's own {@code SecurityWebFilterChain}: the cart is open to all. */
@Configuration(proxyBeanMethods = false)
@Import(ReactiveShopApp.class)
public class ReactiveOwnChainApp {
  @Bean
  MapReactiveUserDetailsService users() {
    return new MapReactiveUserDetailsService(User.withUsername("alice").password("{noop}secret").roles("USER").build());
  }

  @Bean
  SecurityWebFilterChain shopChain(ServerHttpSecurity http) {
    return http.authorizeExchange(e -> e.pathMatchers("/cart", "/csrf").permitAll().anyExchange().authenticated())
        .formLogin(Customizer.withDefaults())
        .build();
  }
}
