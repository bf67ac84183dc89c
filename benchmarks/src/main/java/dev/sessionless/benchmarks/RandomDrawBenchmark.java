package dev.sessionless.benchmarks;

import dev.sessionless.core.internal.SeededRandom;
import java.security.DrbgParameters;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One 12-byte draw (an AES-GCM IV) from core's {@code SeededRandom} (the JDK's DRBG, served from a
 * block), beside the platform default ({@code NativePRNG} on Linux, which reads {@code
 * /dev/urandom} when its buffer is stale) and an unbuffered DRBG of the same strength. Run:
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar RandomDrawBenchmark -f 2 -wi 3 -i 5
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RandomDrawBenchmark {
  private final byte[] iv = new byte[12];
  private SecureRandom platform;
  private SecureRandom drbg;

  /** The two baselines, seeded before measuring. */
  @Setup
  public void setUp() throws NoSuchAlgorithmException {
    platform = new SecureRandom();
    drbg = SecureRandom.getInstance("DRBG",
        DrbgParameters.instantiation(256, DrbgParameters.Capability.RESEED_ONLY, null));
    platform.nextBytes(iv);
    drbg.nextBytes(iv);
    SeededRandom.nextBytes(iv);
  }

  /** Core's source: the DRBG's output a block at a time. */
  @Benchmark
  public byte[] seededRandom() {
    SeededRandom.nextBytes(iv);
    return iv;
  }

  /** The platform default. */
  @Benchmark
  public byte[] platformDefault() {
    platform.nextBytes(iv);
    return iv;
  }

  /** The same DRBG, one call per draw. */
  @Benchmark
  public byte[] unbufferedDrbg() {
    drbg.nextBytes(iv);
    return iv;
  }
}
