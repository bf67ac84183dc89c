package dev.sessionless.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.spring.boot.it.Browser;
import dev.sessionless.spring.boot.it.Containers;
import dev.sessionless.spring.boot.it.Instance;
import dev.sessionless.spring.boot.it.ShopApp;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;

/** An application's own SecurityFilterChain gets the stateless repositories too, or a clear refusal. */
class OwnSecurityChainTest {
  private static final Pattern CSRF_INPUT = Pattern.compile("name=\"_csrf\"[^>]*value=\"([^\"]+)\"");

  @TempDir
  Path dir;

  private String keyFile() throws Exception {
    Path keys = dir.resolve("keys.jwks");
    Files.writeString(keys, KeySet.of(TokenKey.generate("k1", Algorithm.DIR_A256GCM)).toJwksWithSecrets());
    return "sessionless.keys.file=" + keys;
  }

  /** A chain of the application's own: a public page, form login, roles. */
  @Configuration(proxyBeanMethods = false)
  @Import(ShopApp.class)
  static class OwnChain {
    @Bean
    SecurityFilterChain app(HttpSecurity http) throws Exception {
      return http.authorizeHttpRequests(a -> a.requestMatchers("/session-id").permitAll()
              .requestMatchers("/cart").hasRole("BUYER").anyRequest().authenticated())
          .formLogin(Customizer.withDefaults())
          .build();
    }
  }

  @Test
  void anApplicationsOwnChainKeepsItsStateInTheTokenSession() throws Exception {
    try (Instance app = Instance.start(OwnChain.class, Containers.only("tomcat"), keyFile(),
        "spring.security.user.name=bob", "spring.security.user.password=pw",
        "spring.security.user.roles=BUYER")) {
      Browser browser = new Browser();
      HttpResponse<String> r = browser.get(app.uri("/login"));
      Matcher m = CSRF_INPUT.matcher(r.body());
      assertTrue(m.find(), r.body());
      r = browser.postForm(app.uri("/login"), Map.of("username", "bob", "password", "pw", "_csrf", m.group(1)));
      assertEquals(302, r.statusCode());
      assertEquals("[]", browser.get(app.uri("/cart")).body(), "the role survives the round trip through the token");
      assertEquals("hello bob", browser.get(app.uri("/private")).body());
    }
  }

  /** A chain asking for concurrent-session control, which needs a server-side registry. */
  @Configuration(proxyBeanMethods = false)
  @Import(ShopApp.class)
  static class ConcurrentSessions {
    @Bean
    SecurityFilterChain app(HttpSecurity http) throws Exception {
      return http.authorizeHttpRequests(a -> a.anyRequest().authenticated())
          .formLogin(Customizer.withDefaults())
          .sessionManagement(s -> s.maximumSessions(1))
          .build();
    }
  }

  @Test
  void stateThatCannotLiveInATokenIsRefusedAtStartupNotPerRequest() throws Exception {
    String keys = keyFile();
    RuntimeException e = assertThrows(RuntimeException.class,
        () -> Instance.start(ConcurrentSessions.class, Containers.only("tomcat"), keys).close());
    Throwable t = e;
    while (t.getCause() != null) {
      t = t.getCause();
    }
    assertTrue(t.getMessage().contains("concurrent-session control"), t.getMessage());
    assertTrue(t.getMessage().contains("security filter chain 'app'"), t.getMessage());
  }
}
