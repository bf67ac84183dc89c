package dev.sessionless.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.spring.boot.it.Browser;
import dev.sessionless.spring.boot.it.Cart;
import dev.sessionless.spring.boot.it.Containers;
import dev.sessionless.spring.boot.it.Instance;
import dev.sessionless.spring.boot.it.ShopApp;
import dev.sessionless.spring.boot.security.SessionlessRequestCache;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client chooses the URL it asks for before login, and Spring Security saves it in the
 * session: a real Boot application with Spring Security's default configuration, over real HTTP.
 */
@Timeout(120)
class LongQueryTest {
  private static final Pattern CSRF_INPUT = Pattern.compile("name=\"_csrf\"[^>]*value=\"([^\"]+)\"");

  @TempDir
  Path dir;

  private static int cookieBytes(HttpResponse<?> r) {
    List<String> cookies = r.headers().allValues("Set-Cookie");
    return cookies.stream().mapToInt(String::length).sum();
  }

  @ParameterizedTest
  @ValueSource(strings = {"tomcat", "jetty"})
  void anUnauthenticatedRequestWithAVeryLongQueryGetsTheLoginPageWithASmallCookieAndReturnsToItsPath(String container)
      throws Exception {
    Path keys = Files.writeString(dir.resolve("keys.jwks"),
        KeySet.of(TokenKey.generate("k1", Algorithm.DIR_A256GCM)).toJwksWithSecrets());
    try (Instance shop = Instance.start(ShopApp.class, Containers.only(container), "sessionless.keys.file=" + keys,
        "sessionless.attribute-types=" + Cart.class.getName(), "spring.security.user.name=alice",
        "spring.security.user.password=secret")) {
      Browser browser = new Browser();
      String query = "q=" + "a".repeat(6000);
      HttpResponse<String> r = browser.get(shop.uri("/cart?" + query), "Accept", "text/html");
      assertEquals(302, r.statusCode(), r.body());
      assertTrue(r.headers().firstValue("Location").orElseThrow().endsWith("/login"), r.headers().map().toString());
      assertTrue(cookieBytes(r) < 1500, "the session cookie stays small: " + cookieBytes(r) + " bytes");

      HttpResponse<String> login = browser.get(shop.uri("/login"), "Accept", "text/html");
      assertEquals(200, login.statusCode());
      Matcher csrf = CSRF_INPUT.matcher(login.body());
      assertTrue(csrf.find(), login.body());
      HttpResponse<String> in = browser.postForm(shop.uri("/login"),
          Map.of("username", "alice", "password", "secret", "_csrf", csrf.group(1)));
      assertEquals(302, in.statusCode(), in.body());
      String back = in.headers().firstValue("Location").orElseThrow();
      assertTrue(back.endsWith("/cart?continue"), "back to the path, without the over-long query: " + back);
      assertTrue(back.length() < SessionlessRequestCache.MAX_URL_LENGTH, back);
    }
  }
}
