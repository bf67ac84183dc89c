package dev.sessionless.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import dev.sessionless.spring.boot.it.Browser;
import dev.sessionless.spring.boot.it.Containers;
import dev.sessionless.spring.boot.it.FakeAuthorizationServer;
import dev.sessionless.spring.boot.it.Instance;
import dev.sessionless.spring.boot.it.OAuth2App;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.web.server.context.WebServerApplicationContext;

/**
 * OIDC login with Spring Security's default OAuth2 client configuration, against a real local
 * authorization server ({@link FakeAuthorizationServer}: discovery, JWKS, authorize and token
 * endpoints, RS256 ID tokens), across two instances that share only a key file: the login starts
 * on one instance and its callback arrives at the other, so the authorization request (state,
 * nonce, PKCE verifier) must travel in the token session; the logged-in user is then restored
 * from the token on either instance.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OAuth2LoginTest {
  private TokenCodec codec;
  private FakeAuthorizationServer provider;
  private Instance a;
  private Instance b;

  /** The embedded container: Tomcat 11 here, Jetty 12.1 in {@link OAuth2LoginJettyTest}. */
  String container() {
    return "tomcat";
  }

  private List<String> properties(Path keys, FakeAuthorizationServer provider) {
    return new ArrayList<>(List.of(Containers.only(container()), "sessionless.keys.file=" + keys,
        "spring.security.oauth2.client.registration.fake.client-id=shop",
        "spring.security.oauth2.client.registration.fake.client-authentication-method=none",
        "spring.security.oauth2.client.registration.fake.authorization-grant-type=authorization_code",
        "spring.security.oauth2.client.registration.fake.scope=openid,profile,email",
        "spring.security.oauth2.client.provider.fake.issuer-uri=" + provider.issuer(),
        "spring.security.oauth2.client.provider.fake.user-name-attribute=preferred_username"));
  }

  @BeforeAll
  void startProviderAndTwoInstances(@TempDir Path dir) throws Exception {
    Path keys = dir.resolve("keys.jwks");
    Files.writeString(keys, KeySet.of(TokenKey.generate("k1", Algorithm.DIR_A256GCM)).toJwksWithSecrets());
    codec = TokenCodec.builder().keys(KeySet.fromJwks(Files.readString(keys)))
        .issuer("application").audience("application").timeToLive(Duration.ofMinutes(30))
        .algorithm(Algorithm.DIR_A256GCM).build();
    provider = FakeAuthorizationServer.start("shop");
    a = Instance.start(OAuth2App.class, properties(keys, provider).toArray(new String[0]));
    // Behind a balancer both instances have one public URL; here b's registration names a's
    // callback, so every login made on b returns to a.
    List<String> propsB = properties(keys, provider);
    propsB.add("spring.security.oauth2.client.registration.fake.redirect-uri=" + a.uri("/login/oauth2/code/fake"));
    b = Instance.start(OAuth2App.class, propsB.toArray(new String[0]));
    for (Instance i : new Instance[] {a, b}) {
      String server = ((WebServerApplicationContext) i.context).getWebServer().getClass().getSimpleName();
      assertTrue(server.toLowerCase().startsWith(container()), server);
    }
  }

  @AfterAll
  void stop() {
    for (AutoCloseable c : new AutoCloseable[] {b, a, provider}) {
      try {
        if (c != null) {
          c.close();
        }
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
  }

  @Test
  void oidcLoginStartedOnOneInstanceCompletesOnTheOtherAndTheUserIsRestoredOnBoth() throws Exception {
    Browser browser = new Browser();
    int issued = provider.tokensIssued.get();

    HttpResponse<String> r = browser.get(a.uri("/private"), "Accept", "text/html");
    assertEquals(302, r.statusCode(), "an anonymous user is sent to log in");
    assertTrue(location(r).endsWith("/oauth2/authorization/fake"), location(r));

    r = browser.get(b.uri("/oauth2/authorization/fake"));
    assertEquals(302, r.statusCode(), r.body());
    URI authorize = URI.create(location(r));
    assertTrue(authorize.toString().startsWith(provider.issuer() + "/authorize?"), authorize.toString());
    SessionToken pending = codec.decode(browser.cookie("SESSIONLESS").orElseThrow());
    assertFalse(pending.stateJson().contains("org.springframework"), pending.stateJson());

    r = browser.get(authorize);
    assertEquals(302, r.statusCode(), "the provider approves and sends the browser back");
    Map<String, String> sent = provider.authorizations.get(provider.authorizations.size() - 1);
    assertNotNull(sent.get("nonce"), "an OIDC login sends a nonce: " + sent);
    assertEquals("S256", sent.get("code_challenge_method"), "a public client uses PKCE: " + sent);
    URI callback = URI.create(location(r));
    assertEquals(a.port, callback.getPort(), "the callback goes to the other instance");

    r = browser.get(callback);
    assertEquals(302, r.statusCode(), r.body());
    assertTrue(location(r).endsWith("/private?continue"), "login returns to the saved request: " + location(r));
    assertEquals(issued + 1, provider.tokensIssued.get(), "the code, redirect URI and PKCE verifier were"
        + " accepted: " + provider.refusals);
    SessionToken loggedIn = codec.decode(browser.cookie("SESSIONLESS").orElseThrow());
    assertNotEquals(pending.id(), loggedIn.id(), "login changes the session id");
    String state = loggedIn.stateJson();
    assertFalse(state.contains("org.springframework"), "no Spring class travels in the token: " + state);
    assertFalse(state.contains(sent.get("nonce")), "the used authorization request is gone: " + state);
    assertFalse(state.contains("\"nonce\""), state);
    assertTrue(state.contains("\"registration\":\"fake\""), state);

    assertEquals("hello alice", browser.get(b.uri("/private?continue")).body());
    String me = "fake|alice|sub-alice|alice@example.com|Alice Liddell|" + provider.issuer()
        + "|true|SCOPE_email,SCOPE_openid,SCOPE_profile|true";
    assertEquals(me, browser.get(a.uri("/me")).body(), "the OIDC user is restored on one instance");
    assertEquals(me, browser.get(b.uri("/me")).body(), "and on the other");

    r = browser.get(callback);
    assertEquals(302, r.statusCode());
    assertTrue(location(r).contains("/login?error"), "a replayed callback finds no authorization request: "
        + location(r));
    assertEquals(issued + 1, provider.tokensIssued.get(), "and never reaches the provider again");
  }

  @Test
  void oidcLoginFitsOneCookieAndLogoutClearsIt() throws Exception {
    Browser browser = new Browser();
    HttpResponse<String> r = browser.get(a.uri("/oauth2/authorization/fake"));
    int pending = browser.cookie("SESSIONLESS").orElseThrow().length();
    System.out.println("OAuth2LoginTest: token while the authorization request is pending: " + pending + " chars");
    assertTrue(pending < 1500, "the pending authorization request is small: " + pending);
    r = browser.get(URI.create(location(r)));
    r = browser.get(URI.create(location(r)));
    assertEquals(302, r.statusCode());
    assertEquals("hello alice", browser.get(a.uri("/private")).body());
    int loggedIn = browser.cookie("SESSIONLESS").orElseThrow().length();
    System.out.println("OAuth2LoginTest: token after the OIDC login: " + loggedIn + " chars");
    assertTrue(loggedIn < 3000, "the login fits one cookie: " + loggedIn);

    String csrf = browser.get(b.uri("/csrf")).body();
    r = browser.postForm(b.uri("/logout"), Map.of("_csrf", csrf));
    assertEquals(302, r.statusCode(), r.body());
    assertTrue(browser.cookie("SESSIONLESS").isEmpty(), "logout clears the session cookie");
    r = browser.get(a.uri("/private"), "Accept", "text/html");
    assertEquals(302, r.statusCode(), "after logout the page is protected again");
  }

  private static String location(HttpResponse<String> r) {
    return r.headers().firstValue("Location").orElseThrow(() -> new AssertionError("no Location: " + r.statusCode()));
  }
}
