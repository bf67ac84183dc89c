package dev.sessionless.session.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link CookieHeaders#scan} reads a {@code Cookie} header in work linear in its length, whatever
 * its shape: counted as characters read through a counting {@link CharSequence}, not timed. The
 * sizes are the largest header Jetty and Tomcat accept by default (8 KiB) and the 32 KiB the
 * test containers accept.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CookieHeadersWorkTest {
  static final int[] SIZES = {8 * 1024, 32 * 1024};

  /** A string whose {@code charAt} calls are counted. */
  static final class Counting implements CharSequence {
    final String s;
    long reads;

    Counting(String s) {
      this.s = s;
    }

    @Override
    public int length() {
      return s.length();
    }

    @Override
    public char charAt(int index) {
      reads++;
      return s.charAt(index);
    }

    @Override
    public CharSequence subSequence(int start, int end) {
      throw new UnsupportedOperationException("the scan copies nothing");
    }

    @Override
    public String toString() {
      return s;
    }
  }

  /** {@code piece} repeated to {@code size} characters, then {@code tail}. */
  static String repeat(String piece, int size, String tail) {
    StringBuilder b = new StringBuilder(size + tail.length());
    while (b.length() + piece.length() <= size - tail.length()) {
      b.append(piece);
    }
    return b.append(tail).toString();
  }

  /** Characters read to scan {@code header}, and the names of its pieces. */
  static long reads(String header, List<String> names) {
    Counting c = new Counting(header);
    CookieHeaders.scan(c, (ns, ne, eq, end) -> {
      names.add(header.substring(ns, ne));
      return true;
    });
    return c.reads;
  }

  @Test
  void cookieHeaderWithManyPiecesWithoutEqualsIsScannedInLinearWork() {
    for (int size : SIZES) {
      String h = repeat("a;", size, "SL=v");
      List<String> names = new ArrayList<>();
      long reads = reads(h, names);
      assertEquals(List.of("SL"), names);
      assertTrue(reads <= 2L * h.length(), size + " chars of a;a;…: " + reads + " reads");
    }
  }

  @Test
  void everyShapeOfHeaderIsScannedInAtMostThreeReadsPerCharacter() {
    String[] shapes = {";", " ", "a", "=", " ;", "a=;", "a= ;", " a =b; ", "= ", "a ;", "\t=\t;"};
    for (int size : SIZES) {
      for (String shape : shapes) {
        String h = repeat(shape, size, "");
        long reads = reads(h, new ArrayList<>());
        assertTrue(reads <= 3L * h.length(), size + " chars of '" + shape + "': " + reads + " reads");
      }
    }
  }

  @Test
  void worstShapeCostsNoMoreThanTwiceANormalHeaderOfTheSameLength() {
    for (int size : SIZES) {
      String normal = repeat("theme=dark; lang=en-GB; consent=yes; ", size, "SL=v");
      String worst = repeat("a;", normal.length(), "SL=v");
      long normalReads = reads(normal, new ArrayList<>());
      long worstReads = reads(worst, new ArrayList<>());
      assertTrue(worstReads <= 2 * normalReads, size + ": worst " + worstReads + " vs normal " + normalReads);
    }
  }
}
