package dev.sessionless.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.servlet.SessionlessFilter;
import dev.sessionless.spring.boot.it.Browser;
import dev.sessionless.spring.boot.it.Cart;
import dev.sessionless.spring.boot.it.Containers;
import dev.sessionless.spring.boot.it.Instance;
import dev.sessionless.spring.boot.it.KeyFiles;
import dev.sessionless.spring.boot.it.ReactiveOwnChainApp;
import dev.sessionless.spring.boot.it.ReactiveShopApp;
import dev.sessionless.spring.boot.it.ShopApp;
import dev.sessionless.spring.boot.security.SessionlessSecurityContextRepository;
import dev.sessionless.spring.boot.security.SessionlessServerCsrfTokenRepository;
import dev.sessionless.spring.boot.security.SessionlessServerSecurityContextRepository;
import dev.sessionless.webflux.SessionlessWebSessionManager;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.security.web.server.WebFilterChainProxy;
import org.springframework.security.web.server.csrf.CsrfWebFilter;
import org.springframework.test.util.ReflectionTestUtils;

/**
 * Which auto-configuration a reactive and a servlet application get: the token {@code
 * WebSession} and the reactive Security repositories in one, the servlet filter and its
 * repositories in the other, never both; the same startup warnings and failures.
 */
@Timeout(120)
@ExtendWith(OutputCaptureExtension.class)
class ReactiveStartupTest {
  @TempDir
  Path dir;

  private String keyFile() throws Exception {
    return KeyFiles.a256gcm(dir.resolve("keys.jwks")).toString();
  }

  @Test
  void aReactiveAppGetsTheTokenWebSessionAndTheReactiveRepositoriesButNoServletFilter() throws Exception {
    try (Instance app = ReactiveSpringSecurityTest.start(Path.of(keyFile()))) {
      assertInstanceOf(SessionlessWebSessionManager.class, app.context.getBean("webSessionManager"));
      assertEquals(0, app.context.getBeanNamesForType(SessionlessFilter.class).length);
      assertFalse(app.context.containsBean("sessionlessFilterRegistration"));
      assertEquals(0, app.context.getBeanNamesForType(SessionlessSecurityContextRepository.class).length);
      assertEquals(1, app.context.getBeanNamesForType(SessionlessServerSecurityContextRepository.class).length);
      // Boot's default chain got the repository through the Customizer<ServerHttpSecurity>; that
      // chain is no bean, only inside Spring Security's WebFilterChainProxy.
      List<?> chains = (List<?>) ReflectionTestUtils.getField(app.context.getBean(WebFilterChainProxy.class), "filters");
      assertEquals(1, chains.size());
      CsrfWebFilter csrf = (CsrfWebFilter) ((SecurityWebFilterChain) chains.get(0)).getWebFilters().toStream()
          .filter(CsrfWebFilter.class::isInstance).findFirst().orElseThrow();
      assertInstanceOf(SessionlessServerCsrfTokenRepository.class,
          ReflectionTestUtils.getField(csrf, "csrfTokenRepository"));
    }
  }

  @Test
  void theApplicationsOwnSecurityWebFilterChainGetsTheRepositoriesToo() throws Exception {
    List<String> properties = new ArrayList<>(ReactiveShopApp.REACTIVE);
    properties.add("sessionless.keys.file=" + keyFile());
    properties.add("sessionless.attribute-types=" + Cart.class.getName());
    try (Instance a = Instance.start(ReactiveOwnChainApp.class, properties.toArray(new String[0]));
        Instance b = Instance.start(ReactiveOwnChainApp.class, properties.toArray(new String[0]))) {
      SecurityWebFilterChain chain = a.context.getBean("shopChain", SecurityWebFilterChain.class);
      CsrfWebFilter csrf = (CsrfWebFilter) chain.getWebFilters().toStream()
          .filter(CsrfWebFilter.class::isInstance).findFirst().orElseThrow();
      assertInstanceOf(SessionlessServerCsrfTokenRepository.class,
          ReflectionTestUtils.getField(csrf, "csrfTokenRepository"));
      // And over HTTP: an anonymous cart, CSRF-protected, kept across the two instances.
      Browser browser = new Browser();
      String token = browser.get(a.uri("/csrf")).body();
      assertEquals("[mug]", browser.postForm(b.uri("/cart"), Map.of("item", "mug", "_csrf", token)).body());
      assertEquals("[mug, tea]", browser.postForm(a.uri("/cart"), Map.of("item", "tea", "_csrf", token)).body());
      assertEquals(403, browser.postForm(b.uri("/cart"), Map.of("item", "jam")).statusCode(), "no CSRF token");
    }
  }

  @Test
  void aServletAppGetsNoneOfTheReactivePieces() throws Exception {
    try (Instance app = Instance.start(ShopApp.class, Containers.only("tomcat"), "sessionless.keys.file=" + keyFile())) {
      assertEquals(1, app.context.getBeanNamesForType(SessionlessFilter.class).length);
      assertEquals(0, app.context.getBeanNamesForType(SessionlessWebSessionManager.class).length);
      assertEquals(0, app.context.getBeanNamesForType(SessionlessServerSecurityContextRepository.class).length);
      assertEquals(1, app.context.getBeanNamesForType(SessionlessSecurityContextRepository.class).length);
    }
  }

  @Test
  void aReactiveAppWithoutRevocationWarnsThatLogoutIsNotBindingAsTheServletSideDoes(CapturedOutput output)
      throws Exception {
    try (Instance app = ReactiveSpringSecurityTest.start(Path.of(keyFile()))) {
      String log = output.getAll();
      assertTrue(log.contains("WARN") && log.contains(SessionlessAutoConfiguration.UNBINDING_LOGOUT), log);
    }
  }

  @Test
  void aReactiveAppWithRevocationStartsWithoutThatWarning(CapturedOutput output) throws Exception {
    try (Instance app = ReactiveSpringSecurityTest.start(Path.of(keyFile()), "sessionless.revocation.type=memory")) {
      assertFalse(output.getAll().contains(SessionlessAutoConfiguration.UNBINDING_LOGOUT), output.getAll());
    }
  }

  @Test
  void theServletOnlyHeaderSettingFailsAReactiveStartupNamingIt() throws Exception {
    RuntimeException e = assertThrows(RuntimeException.class,
        () -> ReactiveSpringSecurityTest.start(Path.of(keyFile()), "sessionless.header=X-Session"));
    String message = NestedExceptionUtils.getMostSpecificCause(e).getMessage();
    assertTrue(message.contains("sessionless.header"), message);
  }

  @Test
  void signingOnlyKeysUnderTheDefaultAlgorithmFailAReactiveStartupNamingHs256() throws Exception {
    Path keys = dir.resolve("hs.jwks");
    Files.writeString(keys, KeySet.of(TokenKey.generate("h1", Algorithm.HS256)).toJwksWithSecrets());
    RuntimeException e = assertThrows(RuntimeException.class, () -> ReactiveSpringSecurityTest.start(keys));
    String message = NestedExceptionUtils.getMostSpecificCause(e).getMessage();
    Throwable startup = e;
    while (startup != null && !(startup instanceof SessionlessStartupException)) {
      startup = startup.getCause();
    }
    assertInstanceOf(SessionlessStartupException.class, startup, message);
    assertTrue(startup.getMessage().contains("DIR_A256GCM"), startup.getMessage());
  }
}
