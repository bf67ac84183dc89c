package dev.sessionless.session.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link CookieHeaders#find}: the cookie-string grammar, on text. */
class CookieHeadersTest {
  /** Ours: exactly "SL" or "SL.<digits>". */
  static final CookieHeaders.NameTest OURS = (h, from, to) -> {
    String n = h.substring(from, to);
    return n.equals("SL") || n.matches("SL\\.[1-9][0-9]{0,2}");
  };

  /** Each cookie found, as [name, value]. */
  static List<List<String>> find(int atMost, String... headers) {
    return CookieHeaders.find(Collections.enumeration(List.of(headers)), OURS, atMost, null).stream()
        .map(x -> List.of(x.name(), x.value())).toList();
  }

  static List<String> f(String name, String value) {
    return List.of(name, value);
  }

  @Test
  void findsOnlyOurCookieAmongOthers() {
    assertEquals(List.of(f("SL", "abc.def")), find(10, "a=1; SL=abc.def; b=2"));
  }

  @Test
  void noHeaderOrNoCookieOfOursFindsNothing() {
    assertEquals(List.of(), CookieHeaders.find(null, OURS, 10, null));
    assertEquals(List.of(), find(10));
    assertEquals(List.of(), find(10, "", "a=1; b=2", "SLX=1; XSL=2; sl=3"));
  }

  @Test
  void readsEveryHeaderInOrder() {
    assertEquals(List.of(f("SL", "x"), f("SL.1", "y")), find(10, "a=1", "SL=x", "b=2; SL.1=y"));
  }

  @Test
  void trimsSpacesAndTabsAroundNamesAndValues() {
    assertEquals(List.of(f("SL", "v")), find(10, " \tSL \t= \tv\t ;a=1"));
  }

  @Test
  void removesOnePairOfDoubleQuotes() {
    assertEquals(List.of(f("SL", "v")), find(10, "SL=\"v\""));
    assertEquals(List.of(f("SL", "\"v")), find(10, "SL=\"v"), "an unmatched quote stays, for the codec to reject");
    assertEquals(List.of(f("SL", "")), find(10, "SL=\"\""));
  }

  @Test
  void piecesWithoutEqualsAndEmptyPiecesAreSkipped() {
    assertEquals(List.of(f("SL", "v")), find(10, "flag;;  ; SL=v;"));
    assertEquals(List.of(), find(10, "SL; =v"));
  }

  @Test
  void valueRunsToTheSemicolonAndKeepsEqualsSigns() {
    assertEquals(List.of(f("SL", "a=b=")), find(10, "SL=a=b=; c=d"));
  }

  @Test
  void duplicatesAreKeptInOrderUpToTheBound() {
    assertEquals(List.of(f("SL", "1"), f("SL", "2")), find(10, "SL=1; SL=2"));
    List<List<String>> many = find(3, "SL=1; SL=2; SL=3; SL=4; SL=5");
    assertEquals(List.of(f("SL", "1"), f("SL", "2"), f("SL", "3")), many);
  }

  @Test
  void valueIsARegionOfTheHeaderAndTheUsualNameIsNotCopied() {
    String h = "a=1; SL=tok.en; b=2";
    String usual = new String("SL");
    List<CookieHeaders.Found> found = CookieHeaders.find(Collections.enumeration(List.of(h)), OURS, 10, usual);
    assertEquals(1, found.size());
    assertSame(h, found.get(0).header());
    assertEquals("tok.en", h.substring(found.get(0).start(), found.get(0).end()));
    assertSame(usual, found.get(0).name());
  }

  @Test
  void emptyValueIsFound() {
    assertEquals(List.of(f("SL", "")), find(10, "SL=; a=1"));
  }
}
