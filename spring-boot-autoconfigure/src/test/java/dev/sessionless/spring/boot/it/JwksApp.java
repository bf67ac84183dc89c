package dev.sessionless.spring.boot.it;

import dev.sessionless.core.KeySet;
import dev.sessionless.propagation.JwksServlet;
import java.nio.file.Files;
import java.nio.file.Path;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * An issuer's JWKS endpoint and nothing else, configured by hand (no Sessionless property): the
 * keys of the JWKS file {@code test.issuer-keys}, published at {@code /.well-known/jwks.json}.
 * Run with {@code sessionless.enabled=false}.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration(excludeName = {
    "org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration",
    "org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
    "org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration",
    "org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration"})
public class JwksApp {
  @Bean
  ServletRegistrationBean<JwksServlet> jwks(@Value("${test.issuer-keys}") Path file) throws Exception {
    JwksServlet servlet = JwksServlet.builder().keys(KeySet.fromJwks(Files.readString(file))).build();
    return new ServletRegistrationBean<>(servlet, "/.well-known/jwks.json");
  }
}
