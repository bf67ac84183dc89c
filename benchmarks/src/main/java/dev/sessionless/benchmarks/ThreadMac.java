package dev.sessionless.benchmarks;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The naive JCA path's {@code Mac}, keyed with {@link Fixtures#hs256Secret()} once per benchmark
 * thread and reused ({@code Mac} is not thread-safe). Every HS256 benchmark's key has that secret.
 */
@State(Scope.Thread)
public class ThreadMac {
  Mac mac;

  /** Keys the thread's {@code Mac}. */
  @Setup
  public void setup() throws Exception {
    mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(Fixtures.hs256Secret(), "HmacSHA256"));
  }
}
