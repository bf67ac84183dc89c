package dev.sessionless.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.micrometer.SessionlessMetrics;
import dev.sessionless.spring.boot.it.Browser;
import dev.sessionless.spring.boot.it.Instance;
import dev.sessionless.spring.boot.it.PlainApp;
import dev.sessionless.spring.boot.it.ReactiveShopApp;
import dev.sessionless.webflux.SessionlessWebSessionManager;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import java.net.URI;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.io.DefaultResourceLoader;

/**
 * The Micrometer wiring: in a real Boot app (servlet on its container, WebFlux on Reactor Netty)
 * over real HTTP when a registry exists, absent otherwise.
 */
@Timeout(120)
class MetricsAutoConfigurationTest {
  @TempDir
  Path dir;

  /** PlainApp with a Micrometer registry bean, as an app with Micrometer has. */
  @Configuration(proxyBeanMethods = false)
  @Import(PlainApp.class)
  static class MeteredApp {
    @Bean
    SimpleMeterRegistry registry() {
      return new SimpleMeterRegistry();
    }
  }

  /** ReactiveShopApp (WebFlux, Spring Security's default chain) with a Micrometer registry bean. */
  @Configuration(proxyBeanMethods = false)
  @Import(ReactiveShopApp.class)
  static class MeteredReactiveApp {
    @Bean
    SimpleMeterRegistry registry() {
      return new SimpleMeterRegistry();
    }
  }

  private String keyFile() throws Exception {
    Path keys = dir.resolve("keys.jwks");
    Files.writeString(keys, KeySet.of(TokenKey.generate("k1", Algorithm.DIR_A256GCM)).toJwksWithSecrets());
    return "sessionless.keys.file=" + keys;
  }

  @Test
  void withARegistryTheFilterAndKeyringCountIntoIt() throws Exception {
    try (Instance app = Instance.start(MeteredApp.class, keyFile())) {
      MeterRegistry registry = app.context.getBean(MeterRegistry.class);
      assertSame(registry, app.context.getBean(SimpleMeterRegistry.class));
      assertTrue(app.context.getBeansOfType(SessionlessMetrics.class).size() == 1);
      Browser browser = new Browser();
      assertEquals("1:1800", browser.get(app.uri("/count")).body());
      assertEquals("2:1800", browser.get(app.uri("/count")).body());

      assertEquals(1, registry.get("sessionless.tokens.verified").tags("result", "accepted", "alg", "dir")
          .counter().count(), "the second request carried the first one's token");
      assertEquals(2, registry.get("sessionless.cookies.size").summary().count());
      assertEquals(1, registry.get("sessionless.keys.changes").counter().count(), "the keyring's start");
      assertEquals(1, registry.get("sessionless.keys.verifications").tags("kid", "k1").functionCounter().count());
      assertEquals(0, registry.get("sessionless.keys.safe.to.delete").tags("kid", "k1").gauge().value());
      assertFalse(app.context.getBean(Keyring.class).status().keys().isEmpty());
    }
  }

  @Test
  void inAReactiveAppTheTokenWebSessionAndKeyringCountIntoTheRegistry() throws Exception {
    List<String> properties = new ArrayList<>(ReactiveShopApp.REACTIVE);
    properties.add(keyFile());
    try (Instance app = Instance.start(MeteredReactiveApp.class, properties.toArray(new String[0]))) {
      assertTrue(app.context.getBean("webSessionManager") instanceof SessionlessWebSessionManager);
      MeterRegistry registry = app.context.getBean(MeterRegistry.class);
      assertEquals(1, app.context.getBeansOfType(SessionlessMetrics.class).size());
      Browser browser = new Browser();
      // An anonymous visit to a protected page saves the request in the session: a token is written.
      assertEquals(302, browser.get(app.uri("/private"), "Accept", "text/html").statusCode());
      assertEquals(1, registry.get("sessionless.cookies.size").summary().count(), "the session cookie written");
      // The login page reads that session back (and writes its CSRF token into it).
      assertEquals(200, browser.get(app.uri("/login")).statusCode());
      assertEquals(1, registry.get("sessionless.tokens.verified").tags("result", "accepted", "alg", "dir")
          .counter().count(), "the second request carried the first one's token");
      assertEquals(1, registry.get("sessionless.keys.changes").counter().count(), "the keyring's start");
      assertFalse(app.context.getBean(Keyring.class).status().keys().isEmpty());
    }
  }

  @Test
  void withoutMicrometerNothingOfItLoadsAndSessionsStillWork() throws Exception {
    // The application's class loader hides Micrometer, so @ConditionalOnClass sees it absent; the
    // registry bean exists all the same, so only the class condition keeps the metrics out.
    DefaultResourceLoader withoutMicrometer = new DefaultResourceLoader(new FilteredClassLoader("io.micrometer"));
    try (ConfigurableApplicationContext context = new SpringApplicationBuilder(MeteredApp.class)
        .resourceLoader(withoutMicrometer)
        .properties("server.port=0", "server.address=127.0.0.1", "logging.level.root=WARN",
            "spring.main.banner-mode=off", keyFile())
        .run()) {
      assertTrue(context.getBeansOfType(SessionlessMetrics.class).isEmpty());
      assertEquals(1, context.getBeansOfType(Keyring.class).size());
      assertTrue(context.getBean(SimpleMeterRegistry.class).getMeters().isEmpty(), "nothing counted into it");
      int port = Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
      Browser browser = new Browser();
      browser.get(URI.create("http://127.0.0.1:" + port + "/count"));
      assertEquals("2:1800", browser.get(URI.create("http://127.0.0.1:" + port + "/count")).body());
    }
  }

  @Test
  void withoutARegistryBeanTheMetricsBackOff() throws Exception {
    try (Instance app = Instance.start(PlainApp.class, keyFile())) {
      assertTrue(app.context.getBeansOfType(SessionlessMetrics.class).isEmpty());
      assertEquals(1, app.context.getBeansOfType(Keyring.class).size());
      assertEquals("1:1800", new Browser().get(app.uri("/count")).body());
    }
  }
}
