package dev.sessionless.core.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link Scratch#sameChars}: the verification cache's exact comparison of a token and a header region. */
class ScratchTest {
  static final String TOKEN = "eyJhbGciOiJIUzI1NiJ9." + "eyJzdCI6e30".repeat(40) + ".c2lnbmF0dXJlLXRhaWwtb2YtdGhlLXRva2Vu";

  @Test
  void sameRegionIsEqualWhereverItLies() {
    String header = "theme=dark; SL=" + TOKEN + "; lang=en";
    assertTrue(Scratch.sameChars(header, 15, TOKEN, 0, TOKEN.length()));
    assertTrue(Scratch.sameChars(TOKEN, 0, header, 15, TOKEN.length()));
  }

  @Test
  void oneDifferentCharacterAnywhereIsUnequal() {
    for (int i : new int[] {0, 1, TOKEN.length() / 2, TOKEN.length() - 2, TOKEN.length() - 1}) {
      char[] c = TOKEN.toCharArray();
      c[i] = c[i] == 'A' ? 'B' : 'A';
      String header = "SL=" + new String(c);
      assertFalse(Scratch.sameChars(header, 3, TOKEN, 0, TOKEN.length()), "differs at " + i);
    }
  }

  @Test
  void characterBeyondLatin1IsNotTakenForItsLowByte() {
    // U+0141 has the low byte 0x41 ('A'): a byte-wise copy would call these equal
    char[] c = TOKEN.toCharArray();
    int i = TOKEN.indexOf('A') >= 0 ? TOKEN.indexOf('A') : 5;
    String expected = TOKEN.substring(0, i) + 'A' + TOKEN.substring(i + 1);
    c[i] = '\u0141';
    assertFalse(Scratch.sameChars("SL=" + new String(c), 3, expected, 0, expected.length()));
  }

  @Test
  void shortRegionsCompareToo() {
    assertTrue(Scratch.sameChars("xxabcxx", 2, "abc", 0, 3));
    assertFalse(Scratch.sameChars("xxabdxx", 2, "abc", 0, 3));
    assertTrue(Scratch.sameChars("", 0, "", 0, 0));
  }

  @Test
  void longerThanTheKeptBuffersStillCompares() {
    String big = "a".repeat(Scratch.KEEP_AT_MOST + 10);
    assertTrue(Scratch.sameChars("x" + big, 1, big, 0, big.length()));
    assertFalse(Scratch.sameChars("x" + big.substring(1) + "b", 1, big, 0, big.length()));
  }
}
