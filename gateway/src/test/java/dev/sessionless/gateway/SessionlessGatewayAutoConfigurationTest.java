package dev.sessionless.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.propagation.OutgoingTokens;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import dev.sessionless.spring.boot.SessionlessReactivePropagationAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.mock.env.MockEnvironment;
import org.springframework.web.server.session.CookieWebSessionIdResolver;
import org.springframework.web.server.session.DefaultWebSessionManager;
import reactor.core.publisher.Mono;

/** When the gateway's beans are made, from which properties, and when they back off or fail the startup. */
@Timeout(60)
class SessionlessGatewayAutoConfigurationTest {
  @TempDir
  static Path dir;
  static Path keysFile;

  private final ReactiveWebApplicationContextRunner reactive = new ReactiveWebApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(SessionlessReactivePropagationAutoConfiguration.class,
          SessionlessGatewayAutoConfiguration.class));

  @BeforeAll
  static void keys() throws Exception {
    keysFile = dir.resolve("gateway.jwks");
    Files.writeString(keysFile, KeySet.of(TokenKey.generate("gw-1", Algorithm.ES256)).toJwksWithSecrets());
  }

  private String[] sending(String... more) {
    List<String> p = new java.util.ArrayList<>(List.of("sessionless.propagation.send.issuer=https://gateway.example",
        "sessionless.propagation.send.keys-file=" + keysFile));
    p.addAll(List.of(more));
    return p.toArray(String[]::new);
  }

  @Test
  void aReactiveAppWithAnIssuerGetsTheRouteFilterAndTheJwksEndpoint() {
    reactive.withPropertyValues(sending()).run(context -> {
      assertTrue(context.getStartupFailure() == null, String.valueOf(context.getStartupFailure()));
      assertEquals(1, context.getBeansOfType(SessionlessInternalTokenGatewayFilterFactory.class).size());
      assertTrue(context.containsBean("sessionlessJwksWebFilter"));
    });
  }

  @Test
  void aGatewayWithAnIssuerAndNoGrantsStartsWithoutOutgoingTokens() {
    reactive.withPropertyValues(sending()).run(context -> {
      assertTrue(context.getStartupFailure() == null, String.valueOf(context.getStartupFailure()));
      assertEquals(1, context.getBeansOfType(SessionlessInternalTokenGatewayFilterFactory.class).size());
      assertTrue(context.getBeansOfType(OutgoingTokens.class).isEmpty(), "nothing to grant: no WebClient tokens");
    });
  }

  @Test
  void aGrantGivesAReactiveAppOutgoingTokensForItsWebClients() {
    reactive.withPropertyValues(sending("sessionless.propagation.send.grants.billing=plan,tenant")).run(context -> {
      assertTrue(context.getStartupFailure() == null, String.valueOf(context.getStartupFailure()));
      context.getBean(OutgoingTokens.class).requireGrant("billing");
    });
  }

  @Test
  void withoutAnIssuerOrOutsideAReactiveAppNothingIsMade() {
    // Not a servlet context: this module's tests run without the Servlet API, as a gateway does.
    reactive.run(context -> assertTrue(context.getBeansOfType(SessionlessInternalTokenGatewayFilterFactory.class).isEmpty()));
    new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(SessionlessGatewayAutoConfiguration.class))
        .withPropertyValues(sending())
        .run(context -> assertTrue(context.getBeansOfType(SessionlessInternalTokenGatewayFilterFactory.class).isEmpty()));
  }

  @Test
  void anIssuerWithoutAKeysFileFailsTheStartupNamingTheProperty() {
    reactive.withPropertyValues("sessionless.propagation.send.issuer=https://gateway.example").run(context -> {
      Throwable failure = context.getStartupFailure();
      assertTrue(failure != null, "the startup failed");
      String messages = String.valueOf(failure) + " " + String.valueOf(org.springframework.core.NestedExceptionUtils
          .getMostSpecificCause(failure).getMessage());
      assertTrue(messages.contains("sessionless.propagation.send.keys-file"), messages);
    });
  }

  @Test
  void theTxnTokenProfileSendsTxnTokenAndWithoutAScopeFailsTheStartupNamingTheProperty() {
    String[] txn = sending("sessionless.propagation.profile=txn-token",
        "sessionless.propagation.send.trust-domain=shop.example");
    reactive.withPropertyValues(txn).run(context -> {
      Throwable failure = context.getStartupFailure();
      assertTrue(failure != null, "the startup failed");
      String messages = String.valueOf(failure) + " " + String.valueOf(org.springframework.core.NestedExceptionUtils
          .getMostSpecificCause(failure).getMessage());
      assertTrue(messages.contains("sessionless.propagation.send.scope"), messages);
    });
    reactive.withPropertyValues(txn).withPropertyValues("sessionless.propagation.send.scope=shop.browse").run(context -> {
      assertTrue(context.getStartupFailure() == null, String.valueOf(context.getStartupFailure()));
      String factory = context.getBean(SessionlessInternalTokenGatewayFilterFactory.class).toString();
      assertTrue(factory.contains("profile=txn-token, header=Txn-Token"), factory);
    });
  }

  @Test
  void theApplicationsOwnSessionResolverIsUsed() {
    EdgeSessionResolver own = (exchange, names) -> Mono.empty();
    reactive.withPropertyValues(sending()).withBean(EdgeSessionResolver.class, () -> own)
        .run(context -> {
          assertTrue(context.getStartupFailure() == null, String.valueOf(context.getStartupFailure()));
          assertSame(own, context.getBean(EdgeSessionResolver.class));
          assertEquals(1, context.getBeansOfType(SessionlessInternalTokenGatewayFilterFactory.class).size());
        });
  }

  @Test
  void withoutAMinterThereIsNoRouteFilterToRegister() {
    // The reactive propagation auto-configuration makes the minter; on its own this class adds nothing.
    new ReactiveWebApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(SessionlessGatewayAutoConfiguration.class))
        .withPropertyValues(sending())
        .run(context -> assertTrue(
            context.getBeansOfType(SessionlessInternalTokenGatewayFilterFactory.class).isEmpty()));
  }

  @Test
  void theSessionCookiesAreTheSessionlessCookieAndTheWebSessionsUnlessSet() {
    SessionlessGatewayProperties unset = new SessionlessGatewayProperties();
    StandardEnvironment env = new StandardEnvironment();
    assertEquals(List.of("SESSIONLESS", "SESSION"), SessionlessGatewayAutoConfiguration.sessionCookies(unset, env, null));

    DefaultWebSessionManager manager = new DefaultWebSessionManager();
    CookieWebSessionIdResolver resolver = new CookieWebSessionIdResolver();
    resolver.setCookieName("EDGE_SESSION");
    manager.setSessionIdResolver(resolver);
    MockEnvironment named = new MockEnvironment().withProperty("sessionless.cookie.name", "SL");
    assertEquals(List.of("SL", "EDGE_SESSION"), SessionlessGatewayAutoConfiguration.sessionCookies(unset, named, manager));

    SessionlessGatewayProperties set = new SessionlessGatewayProperties();
    set.setSessionCookies(List.of("ONLY"));
    assertEquals(List.of("ONLY"), SessionlessGatewayAutoConfiguration.sessionCookies(set, env, manager));
  }
}
