package dev.sessionless.benchmarks;

import javax.crypto.Cipher;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** The naive JCA path's {@code Cipher}, one per benchmark thread, re-initialised per token (each has its own IV). */
@State(Scope.Thread)
public class ThreadCipher {
  Cipher cipher;

  /** Creates the thread's cipher. */
  @Setup
  public void setup() throws Exception {
    cipher = Cipher.getInstance("AES/GCM/NoPadding");
  }
}
