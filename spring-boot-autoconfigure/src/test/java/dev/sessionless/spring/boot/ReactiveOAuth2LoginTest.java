package dev.sessionless.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.spring.boot.it.Browser;
import dev.sessionless.spring.boot.it.FakeAuthorizationServer;
import dev.sessionless.spring.boot.it.Instance;
import dev.sessionless.spring.boot.it.KeyFiles;
import dev.sessionless.spring.boot.it.ReactiveOAuth2App;
import dev.sessionless.spring.boot.it.ReactiveShopApp;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * OIDC login with Spring Security's default reactive OAuth2 client configuration on WebFlux,
 * against a real local authorization server ({@link FakeAuthorizationServer}), across two
 * instances that share only a key file: the login starts on one instance and its callback
 * arrives at the other, so the authorization request (state, nonce, PKCE verifier) travels in
 * the token session; the user is then restored from the token on either instance.
 */
@Timeout(120)
class ReactiveOAuth2LoginTest {
  @TempDir
  Path dir;

  private static List<String> properties(Path keys, FakeAuthorizationServer provider) {
    List<String> p = new ArrayList<>(ReactiveShopApp.REACTIVE);
    p.addAll(List.of("sessionless.keys.file=" + keys,
        "spring.security.oauth2.client.registration.fake.client-id=shop",
        "spring.security.oauth2.client.registration.fake.client-authentication-method=none",
        "spring.security.oauth2.client.registration.fake.authorization-grant-type=authorization_code",
        "spring.security.oauth2.client.registration.fake.scope=openid,profile,email",
        "spring.security.oauth2.client.provider.fake.issuer-uri=" + provider.issuer(),
        "spring.security.oauth2.client.provider.fake.user-name-attribute=preferred_username"));
    return p;
  }

  private static String location(HttpResponse<String> r) {
    return r.headers().firstValue("Location").orElseThrow(() -> new AssertionError("no Location: " + r.statusCode()));
  }

  @Test
  void oidcLoginStartedOnOneReactiveInstanceCompletesOnTheOtherAndTheUserIsRestoredOnBoth() throws Exception {
    Path keys = KeyFiles.a256gcm(dir.resolve("keys.jwks"));
    TokenCodec codec = KeyFiles.sessionReader(keys);
    try (FakeAuthorizationServer provider = FakeAuthorizationServer.start("shop");
        Instance a = Instance.start(ReactiveOAuth2App.class, properties(keys, provider).toArray(new String[0]))) {
      // Behind a balancer both instances have one public URL; here b's registration names a's
      // callback, so every login made on b returns to a.
      List<String> propsB = properties(keys, provider);
      propsB.add("spring.security.oauth2.client.registration.fake.redirect-uri=" + a.uri("/login/oauth2/code/fake"));
      try (Instance b = Instance.start(ReactiveOAuth2App.class, propsB.toArray(new String[0]))) {
        Browser browser = new Browser();
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
        URI callback = URI.create(location(r));
        assertEquals(a.port, callback.getPort(), "the callback goes to the other instance");

        r = browser.get(callback);
        assertEquals(302, r.statusCode(), r.body());
        assertTrue(location(r).endsWith("/private?continue"), "login returns to the saved request: " + location(r));
        assertEquals(1, provider.tokensIssued.get(), "the code and PKCE verifier were accepted: " + provider.refusals);
        SessionToken loggedIn = codec.decode(browser.cookie("SESSIONLESS").orElseThrow());
        assertNotEquals(pending.id(), loggedIn.id(), "login changes the session id");
        assertEquals("alice", loggedIn.subject().orElseThrow(), "the token names the user who logged in");
        String state = loggedIn.stateJson();
        assertFalse(state.contains("org.springframework"), "no Spring class travels in the token: " + state);
        assertFalse(state.contains(sent.get("nonce")), "the used authorization request is gone: " + state);
        assertTrue(state.contains("\"registration\":\"fake\""), state);

        assertEquals("hello alice", browser.get(b.uri("/private?continue")).body());
        String me = "alice|sub-alice|alice@example.com|" + provider.issuer();
        assertEquals(me, browser.get(a.uri("/me")).body(), "the OIDC user is restored on one instance");
        assertEquals(me, browser.get(b.uri("/me")).body(), "and on the other");

        r = browser.get(callback);
        assertEquals(302, r.statusCode());
        assertTrue(location(r).contains("/login?error"), "a replayed callback finds no authorization request: "
            + location(r));
        assertEquals(1, provider.tokensIssued.get(), "and never reaches the provider again");
      }
    }
  }
}
