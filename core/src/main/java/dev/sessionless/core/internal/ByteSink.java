package dev.sessionless.core.internal;

import java.io.OutputStream;
import java.util.Arrays;

/** A growable byte buffer to write JSON into, reused per thread by the encoder. */
public final class ByteSink extends OutputStream {
  private static final ThreadLocal<ByteSink> LOCAL = ThreadLocal.withInitial(ByteSink::new);
  private byte[] buf = new byte[512];
  private int size;

  /** This thread's sink, emptied. */
  public static ByteSink reset() {
    ByteSink s = LOCAL.get();
    s.size = 0;
    return s;
  }

  @Override
  public void write(int b) {
    ensure(1);
    buf[size++] = (byte) b;
  }

  @Override
  public void write(byte[] b, int off, int len) {
    ensure(len);
    System.arraycopy(b, off, buf, size, len);
    size += len;
  }

  private void ensure(int n) {
    if (size + n > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + n));
    }
  }

  /** The backing array; valid up to {@link #size()}. */
  public byte[] array() {
    return buf;
  }

  /** The number of bytes written. */
  public int size() {
    return size;
  }
}
