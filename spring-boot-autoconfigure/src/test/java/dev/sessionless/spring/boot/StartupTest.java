package dev.sessionless.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.servlet.SessionlessFilter;
import dev.sessionless.spring.boot.it.Browser;
import dev.sessionless.spring.boot.it.Instance;
import dev.sessionless.spring.boot.it.PlainApp;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.session.MapSessionRepository;
import org.springframework.session.web.http.SessionRepositoryFilter;

/** What a Boot application gets from the auto-configuration at startup, over real HTTP. */
@ExtendWith(OutputCaptureExtension.class)
class StartupTest {
  @TempDir
  Path dir;

  private String keyFile() throws Exception {
    Path keys = dir.resolve("keys.jwks");
    Files.writeString(keys, KeySet.of(TokenKey.generate("k1", Algorithm.DIR_A256GCM)).toJwksWithSecrets());
    return "sessionless.keys.file=" + keys;
  }

  private static Throwable root(Throwable t) {
    while (t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }

  @Test
  void noKeyConfiguredFailsTheStartupNamingThePropertyToSet() {
    RuntimeException e = assertThrows(RuntimeException.class, () -> Instance.start(PlainApp.class).close());
    String message = root(e).getMessage();
    assertTrue(message.contains("sessionless.keys.file"), message);
    assertTrue(message.contains("sessionless.keys.ephemeral=true"), message);
  }

  @Test
  void anEphemeralKeyIsUsedOnlyWhenAskedForAndSaysSoLoudly(CapturedOutput output) throws Exception {
    try (Instance app = Instance.start(PlainApp.class, "sessionless.keys.ephemeral=true")) {
      Browser browser = new Browser();
      assertEquals(200, browser.get(app.uri("/count")).statusCode());
      assertEquals("2:1800", browser.get(app.uri("/count")).body());
    }
    assertTrue(output.toString().contains("EPHEMERAL"), "the keyring warns about the ephemeral key");
  }

  @Test
  void theKeyringFollowsTheApplicationContextAndIsClosedWithIt() throws Exception {
    Keyring keyring;
    try (Instance app = Instance.start(PlainApp.class, keyFile())) {
      keyring = app.context.getBean(Keyring.class);
      assertFalse(keyring.status().closed());
    }
    assertTrue(keyring.status().closed(), "closing the context stops the keyring's thread");
  }

  @Test
  void bootsOwnSessionSettingsApplyAndThoseThatCannotAreNamedInAWarning(CapturedOutput output) throws Exception {
    try (Instance app = Instance.start(PlainApp.class, keyFile(), "server.servlet.session.timeout=7m",
        "server.servlet.session.cookie.name=SHOP", "server.servlet.session.cookie.secure=true",
        "server.servlet.session.cookie.partitioned=true", "server.servlet.session.tracking-modes=url")) {
      Browser browser = new Browser();
      HttpResponse<String> r = browser.get(app.uri("/count"));
      assertEquals("1:420", r.body(), "server.servlet.session.timeout is the max-inactive interval");
      String setCookie = r.headers().firstValue("Set-Cookie").orElseThrow();
      assertTrue(setCookie.startsWith("SHOP="), "server.servlet.session.cookie.name names the cookie");
      assertTrue(setCookie.contains("Secure"), "server.servlet.session.cookie.secure=true: Secure even over"
          + " plain http to loopback: " + setCookie.replaceAll("=[^;]*", "=…"));
    }
    String log = output.toString();
    assertTrue(log.contains("server.servlet.session.cookie.partitioned is set but does not apply"), log);
    assertFalse(log.contains("server.servlet.session.cookie.secure is set but"), log);
    assertTrue(log.contains("server.servlet.session.tracking-modes is set but does not apply"), log);
    assertFalse(log.contains("server.servlet.session.timeout is set but"), log);
  }

  @Test
  void aHostPrefixedCookieIsSecureWithPathSlashAndNoDomain() throws Exception {
    try (Instance app = Instance.start(PlainApp.class, keyFile(), "sessionless.cookie.name=__Host-shop")) {
      String setCookie = new Browser().get(app.uri("/count")).headers().firstValue("Set-Cookie").orElseThrow();
      assertTrue(setCookie.startsWith("__Host-shop="), setCookie.replaceAll("=[^;]*", "=…"));
      assertTrue(setCookie.contains("Secure") && setCookie.contains("Path=/") && !setCookie.contains("Domain"),
          setCookie.replaceAll("=[^;]*", "=…"));
    }
  }

  @Test
  void sessionlessPropertiesWinOverBootsSessionSettings() throws Exception {
    try (Instance app = Instance.start(PlainApp.class, keyFile(), "server.servlet.session.cookie.name=SHOP",
        "sessionless.cookie.name=TOKEN", "sessionless.timeout=2m")) {
      Browser browser = new Browser();
      assertEquals("1:120", browser.get(app.uri("/count")).body());
      assertTrue(browser.cookie("TOKEN").isPresent());
      assertFalse(browser.cookie("SHOP").isPresent());
    }
  }

  @Test
  void compressedTokensAreAPropertyForEncryptedAndSignedTokens() throws Exception {
    Path keys = dir.resolve("dir.jwks");
    Files.writeString(keys, KeySet.of(TokenKey.generate("d1", Algorithm.DIR_A256GCM)).toJwksWithSecrets());
    // Each setting, and the zip member its token's header must (or must not) carry.
    Map<String, String> settings = Map.of("sessionless.compress=true", "\"zip\":\"DEF\"",
        "sessionless.compress=false", "", "sessionless.compression=deflate-with-dictionary", "\"zip\":\"SLD1\"");
    for (Map.Entry<String, String> s : settings.entrySet()) {
      try (Instance app = Instance.start(PlainApp.class, "sessionless.keys.file=" + keys,
          "sessionless.algorithm=DIR_A256GCM", s.getKey())) {
        Browser browser = new Browser();
        assertEquals("1:1800", browser.get(app.uri("/count")).body());
        assertEquals("2:1800", browser.get(app.uri("/count")).body(), s.getKey() + ": the token reads back");
        String token = browser.cookie("SESSIONLESS").orElseThrow();
        String header = new String(java.util.Base64.getUrlDecoder().decode(token.substring(0, token.indexOf('.'))),
            java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(!s.getValue().isEmpty(), header.contains("\"zip\""), s.getKey() + ": " + header);
        assertTrue(header.contains(s.getValue()), s.getKey() + ": " + header);
      }
    }
    // HS256, one setting away: a compressed signed token, which this node then reads.
    Path signing = dir.resolve("hs.jwks");
    Files.writeString(signing, KeySet.of(TokenKey.generate("h1", Algorithm.HS256)).toJwksWithSecrets());
    try (Instance app = Instance.start(PlainApp.class, "sessionless.keys.file=" + signing,
        "sessionless.algorithm=HS256", "sessionless.compression=deflate-with-dictionary")) {
      Browser browser = new Browser();
      assertEquals("1:1800", browser.get(app.uri("/count")).body());
      assertEquals("2:1800", browser.get(app.uri("/count")).body(), "the compressed signed token reads back");
      String token = browser.cookie("SESSIONLESS").orElseThrow();
      assertEquals(3, token.split("\\.", -1).length, token);
      assertTrue(new String(java.util.Base64.getUrlDecoder().decode(token.substring(0, token.indexOf('.'))),
          java.nio.charset.StandardCharsets.UTF_8).contains("\"zip\":\"SLD1\""), token);
    }
    Throwable e = assertThrows(Exception.class, () -> Instance.start(PlainApp.class, "sessionless.keys.file=" + signing,
        "sessionless.algorithm=HS256", "sessionless.compress=true", "sessionless.accept-compressed-signed-tokens=false").close());
    assertTrue(root(e).getMessage().contains("acceptCompressedSignedTokens(false)"), root(e).getMessage());
    Throwable both = assertThrows(Exception.class, () -> Instance.start(PlainApp.class, "sessionless.keys.file=" + keys,
        "sessionless.algorithm=DIR_A256GCM", "sessionless.compress=true", "sessionless.compression=deflate").close());
    assertTrue(root(both).getMessage().contains("already set"), root(both).getMessage());
  }

  /** An application's own key source and filter. */
  @Configuration(proxyBeanMethods = false)
  @Import(PlainApp.class)
  static class OwnBeans {
    static final KeySet KEYS = KeySet.of(TokenKey.generate("own", Algorithm.DIR_A256GCM));

    @Bean
    KeySource myKeys() {
      return KEYS;
    }
  }

  @Test
  void anApplicationsOwnKeySourceReplacesTheKeyring() throws Exception {
    try (Instance app = Instance.start(OwnBeans.class)) {
      assertTrue(app.context.getBeansOfType(Keyring.class).isEmpty(), "no keyring is made");
      assertEquals(OwnBeans.KEYS, app.context.getBean(KeySource.class));
      assertEquals(200, new Browser().get(app.uri("/count")).statusCode());
    }
  }

  /** An application's own filter. */
  @Configuration(proxyBeanMethods = false)
  @Import(OwnBeans.class)
  static class OwnFilter {
    static final SessionlessFilter FILTER = SessionlessFilter.builder().keys(OwnBeans.KEYS)
        .issuer("me").audience("mine").build();

    @Bean
    SessionlessFilter myFilter() {
      return FILTER;
    }
  }

  @Test
  void anApplicationsOwnFilterIsTheOneRegistered() throws Exception {
    try (Instance app = Instance.start(OwnFilter.class)) {
      assertEquals(OwnFilter.FILTER, app.context.getBean(SessionlessFilter.class));
      assertInstanceOf(SessionlessFilter.class, app.context.getBean("sessionlessFilterRegistration",
          org.springframework.boot.web.servlet.FilterRegistrationBean.class).getFilter());
      assertEquals(OwnFilter.FILTER, app.context.getBean("sessionlessFilterRegistration",
          org.springframework.boot.web.servlet.FilterRegistrationBean.class).getFilter());
    }
  }

  /** Spring Session configured beside Sessionless. */
  @Configuration(proxyBeanMethods = false)
  @Import(PlainApp.class)
  static class WithSpringSession {
    @Bean
    SessionRepositoryFilter<?> springSessionRepositoryFilter() {
      return new SessionRepositoryFilter<>(new MapSessionRepository(new ConcurrentHashMap<>()));
    }
  }

  @Test
  void springSessionBesideSessionlessFailsTheStartupAskingToPickOne() throws Exception {
    String keys = keyFile();
    RuntimeException e = assertThrows(RuntimeException.class,
        () -> Instance.start(WithSpringSession.class, keys).close());
    String message = root(e).getMessage();
    assertTrue(message.contains("pick one"), message);
    assertTrue(message.contains("springSessionRepositoryFilter"), message);
  }

  @Test
  void disabledLeavesTheContainersSessions() throws Exception {
    try (Instance app = Instance.start(PlainApp.class, "sessionless.enabled=false")) {
      assertTrue(app.context.getBeansOfType(SessionlessFilter.class).isEmpty());
      Browser browser = new Browser();
      browser.get(app.uri("/count"));
      assertTrue(browser.cookie("JSESSIONID").isPresent());
    }
  }
}
