package dev.sessionless.core.internal;

import java.io.OutputStream;
import java.util.Arrays;

/**
 * A growable byte buffer to write JSON into, taken from a shared {@link Pool} by the encoder and
 * given back after each token (no thread keeps one).
 */
public final class ByteSink extends OutputStream {
  private static final int INITIAL = 512;
  private static final Pool<ByteSink> POOL = new Pool<>(ByteSink::new);
  private byte[] buf = new byte[INITIAL];
  private int size;

  private ByteSink() {}

  /** An empty sink; give it back with {@link #release()}. */
  public static ByteSink take() {
    ByteSink s = POOL.take();
    s.size = 0;
    return s;
  }

  /** Gives this sink back to the pool, first dropping a buffer that grew large. */
  public void release() {
    if (buf.length > Scratch.KEEP_AT_MOST) {
      buf = new byte[INITIAL];
    }
    size = 0;
    POOL.give(this);
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

  /** Empties this sink, keeping its buffer. */
  public void reset() {
    size = 0;
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
