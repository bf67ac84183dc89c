package dev.sessionless.core.internal;

import java.security.SecureRandom;
import java.util.Arrays;

/**
 * A stand-in for the entropy source only: hands out fixed bytes where an engine asks for random
 * ones, so that an encryption whose IV a test vector fixes can be produced byte for byte.
 */
public final class FakeRandom extends SecureRandom {
  private static final long serialVersionUID = 1L;
  private final byte[] bytes;

  /** @param bytes the bytes every {@link #nextBytes} call receives; its length must match */
  public FakeRandom(byte[] bytes) {
    this.bytes = bytes.clone();
  }

  @Override
  public void nextBytes(byte[] out) {
    if (out.length != bytes.length) {
      throw new AssertionError("asked for " + out.length + " random bytes, holding " + bytes.length);
    }
    System.arraycopy(bytes, 0, out, 0, bytes.length);
  }

  @Override
  public String toString() {
    return "FakeRandom" + Arrays.toString(bytes);
  }
}
