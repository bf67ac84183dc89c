package dev.sessionless.webflux;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The option checks are the servlet filter's rules, but they speak of this builder, not of web.xml. */
@Timeout(30)
class WebSessionBuilderTest {

  @Test
  void keysThatCanOnlySignAreRefusedNamingTheBuilderMethodAndNoInitParameter() {
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> SessionlessWebSessionManager.builder()
        .keys(KeySet.of(TokenKey.generate("s1", Algorithm.HS256))).issuer("https://shop.test").audience("shop")
        .build());
    assertTrue(e.getMessage().contains("set algorithm(Algorithm.HS256)"), e.getMessage());
    assertFalse(e.getMessage().contains("init parameter"), e.getMessage());
  }

  @Test
  void aHostPrefixedCookieWithADomainIsRefusedAsTheServletFilterRefusesIt() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Fixtures.manager()
        .cookieName("__Host-S").cookieDomain("shop.test").build());
    assertTrue(e.getMessage().startsWith("a __Host- cookie must not have a domain"), e.getMessage());
  }
}
