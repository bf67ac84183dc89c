package dev.sessionless.spring.boot.it;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Run in a JVM whose class path has no Servlet API, Tomcat, Jetty or Spring MVC (as a WebFlux
 * application's has none): two {@link ReactiveShopApp} instances, a form login on one, the
 * page and a CSRF-protected cart on the other. Prints what it saw, one line each.
 */
public final class ReactiveWithoutServletApi {
  private ReactiveWithoutServletApi() {}

  public static void main(String[] args) throws Exception {
    System.out.println("servlet-api=" + present("jakarta.servlet.Filter"));
    Path keys = Files.createTempDirectory("keys").resolve("keys.jwks");
    KeyFiles.a256gcm(keys);
    String[] p = {"spring.main.web-application-type=reactive", "sessionless.keys.file=" + keys,
        "sessionless.attribute-types=" + Cart.class.getName(), "spring.security.user.name=alice",
        "spring.security.user.password=secret"};
    try (Instance a = Instance.start(ReactiveShopApp.class, p); Instance b = Instance.start(ReactiveShopApp.class, p)) {
      Browser browser = new Browser();
      Matcher csrf = Pattern.compile("<input[^>]*name=\"_csrf\"[^>]*value=\"([^\"]+)\"")
          .matcher(browser.get(b.uri("/login")).body());
      if (!csrf.find()) {
        throw new IllegalStateException("no CSRF input on the login page");
      }
      HttpResponse<String> r = browser.postForm(a.uri("/login"),
          Map.of("username", "alice", "password", "secret", "_csrf", csrf.group(1)));
      System.out.println("login=" + r.statusCode());
      System.out.println("page=" + browser.get(b.uri("/private")).body());
      String token = browser.get(a.uri("/csrf")).body();
      System.out.println("cart=" + browser.postForm(b.uri("/cart"), Map.of("item", "mug", "_csrf", token)).body());
    } finally {
      Files.deleteIfExists(keys);
      Files.deleteIfExists(keys.getParent());
    }
  }

  private static boolean present(String name) {
    try {
      Class.forName(name);
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }
}
