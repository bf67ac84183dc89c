package dev.sessionless.session.internal;

import java.util.Arrays;

/** An output stream that only tells whether what is written equals a given byte range. */
final class SameBytes extends java.io.OutputStream {
  private final byte[] expected;
  private final int end;
  private int pos;
  private boolean differs;

  SameBytes(byte[] expected, int off, int len) {
    this.expected = expected;
    this.pos = off;
    this.end = off + len;
  }

  @Override
  public void write(int b) {
    if (!differs && (pos >= end || expected[pos++] != (byte) b)) {
      differs = true;
    }
  }

  @Override
  public void write(byte[] b, int off, int len) {
    if (differs) {
      return;
    }
    if (len > end - pos || !Arrays.equals(b, off, off + len, expected, pos, pos + len)) {
      differs = true;
      return;
    }
    pos += len;
  }

  boolean same() {
    return !differs && pos == end;
  }
}
