package dev.sessionless.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.servlet.it.RecordingLoggerFinder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Cookie prefixes and Secure are checked at build(), with a warning for a risky choice. */
class CookieSecurityBuilderTest {
  private final KeySet keys = KeySet.of(TokenKey.generate("k", Algorithm.DIR_A256GCM));

  private SessionlessFilterBuilder valid() {
    return SessionlessFilter.builder().keys(keys).issuer("i").audience("a");
  }

  @Test
  void hostPrefixRefusesADomainAPathOtherThanRootAndInsecureCookies() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> valid().cookieName("__Host-S").cookieDomain("shop.example").build());
    assertTrue(e.getMessage().contains("domain"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> valid().cookieName("__Host-S").cookiePath("/app").build());
    assertTrue(e.getMessage().contains("Path=/"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> valid().cookieName("__Host-S").cookieSecure(false).build());
    assertTrue(e.getMessage().contains("Secure"), e.getMessage());
    valid().cookieName("__Host-S").cookiePath("/").cookieSecure(true).build();
  }

  @Test
  void securePrefixAndSameSiteNoneRefuseInsecureCookies() {
    assertThrows(IllegalArgumentException.class, () -> valid().cookieName("__Secure-S").cookieSecure(false).build());
    assertThrows(IllegalArgumentException.class, () -> valid().cookieSameSite("None").cookieSecure(false).build());
  }

  @Test
  void cookieSecureWithTheHeaderCarrierIsRefused() {
    assertThrows(IllegalStateException.class, () -> valid().header("X-S").cookieSecure(true).build());
  }

  @Test
  void cookiesThatCouldGoOutWithoutSecureAreAWarningAtBuild() {
    assertTrue(RecordingLoggerFinder.installed(), "the test JVM records System.Logger output");
    int mark = RecordingLoggerFinder.mark();
    valid().build();
    valid().cookieSecure(true).build();
    assertEquals(List.of(), RecordingLoggerFinder.since(mark, e -> e.level == System.Logger.Level.WARNING));
    valid().cookieSecure(false).build();
    List<RecordingLoggerFinder.Entry> warned = RecordingLoggerFinder.since(mark,
        e -> e.level == System.Logger.Level.WARNING);
    assertEquals(1, warned.size(), warned.toString());
    assertTrue(warned.get(0).text.contains("without Secure"), warned.toString());
  }
}
