package dev.sessionless.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class SessionCookiesTest {
  private final SessionCookies cookies = new SessionCookies(List.of("SESSIONLESS", "SESSION"));

  @Test
  void theSessionCookiesAndTheirChunksAreDroppedAndOtherCookiesKeptInOrder() {
    assertEquals("theme=dark; lang=en", cookies.strip(List.of(
        "SESSIONLESS=abc; theme=dark; SESSIONLESS.1=def; SESSION=xyz; lang=en; SESSIONLESS.999=ghi")));
  }

  @Test
  void namesThatOnlyLookLikeChunksAreKept() {
    assertEquals("SESSIONLESS.0=a; SESSIONLESS.01=b; SESSIONLESS.1000=c; SESSIONLESS.x=d; SESSIONLESS.=e; "
            + "XSESSIONLESS=f; SESSIONLESSX=g; session=h",
        cookies.strip(List.of("SESSIONLESS.0=a; SESSIONLESS.01=b; SESSIONLESS.1000=c; SESSIONLESS.x=d; "
            + "SESSIONLESS.=e; XSESSIONLESS=f; SESSIONLESSX=g; session=h")));
  }

  @Test
  void severalHeaderLinesBecomeOneAndEmptyPiecesAndSpacesGo() {
    assertEquals("a=1; b=2; c", cookies.strip(List.of(" a=1 ;; ; SESSION=s", "b=2;SESSIONLESS = t; c")));
  }

  @Test
  void aHeaderOfSessionCookiesOnlyLeavesNothing() {
    assertNull(cookies.strip(List.of("SESSION=s; SESSIONLESS=t; SESSIONLESS.2=u")));
    assertNull(cookies.strip(List.of("", ";;")));
  }

  @Test
  void aValueHoldingASessionCookieNameIsKept() {
    assertEquals("note=SESSION=x", cookies.strip(List.of("note=SESSION=x")));
  }

  @Test
  void aNameThatCannotBeACookieNameIsRefusedNamingTheProperty() {
    for (String bad : new String[] {"", "A B", "A;B", "A=B", "A,B", "A\u0001"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> new SessionCookies(List.of(bad)), bad);
      assertTrue(e.getMessage().startsWith("sessionless.gateway.session-cookies"), e.getMessage());
    }
  }
}
