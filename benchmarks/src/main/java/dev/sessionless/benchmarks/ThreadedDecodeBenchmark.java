package dev.sessionless.benchmarks;

import dev.sessionless.core.TokenCodec;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * HS256 decode (cache off) as a server runs it: each decode is one task on an executor, the way
 * each request is one task on a container's worker pool. Per operation: one submitted task that
 * decodes one token, averaged over a batch of {@value #BATCH} tasks.
 *
 * <ul>
 *   <li>{@code threads=platform}: a fixed pool of platform threads (one per core), reused from
 *       task to task, like a servlet container's worker pool.
 *   <li>{@code threads=virtual}: {@code Executors.newVirtualThreadPerTaskExecutor()}, a new
 *       virtual thread per task, like a container running requests on virtual threads. Anything
 *       a decoder keeps per thread is built again for every request here. Needs JDK 21 or later:
 *       on JDK 17 the set-up of this variant fails with a message and JMH goes on with the
 *       others (or pass {@code -p threads=platform}).
 * </ul>
 *
 * <p>The executor's own cost (queueing, starting a virtual thread, the latch) is in both
 * figures, so compare each variant with itself before and after a change, and the two variants
 * only as a whole.
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar ThreadedDecodeBenchmark -prof gc
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ThreadedDecodeBenchmark {
  static final int BATCH = 100;

  /** {@code platform} or {@code virtual} (JDK 21+). */
  @Param({"platform", "virtual"})
  String threads;

  TokenCodec codec;
  String token;
  ExecutorService executor;

  @Setup
  public void setup() throws Exception {
    codec = Fixtures.codec(Fixtures.hs256Key(), 0);
    token = codec.encode(Fixtures.claims(Fixtures.stateForPayload(200)));
    Fixtures.mustAccept("sessionless", () -> codec.decode(token));
    executor = threads.equals("virtual") ? virtualThreadPerTask()
        : Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors());
  }

  /** {@code Executors.newVirtualThreadPerTaskExecutor()} by reflection: this jar is built for release 17. */
  static ExecutorService virtualThreadPerTask() {
    try {
      return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
    } catch (NoSuchMethodException e) {
      throw new UnsupportedOperationException(
          "threads=virtual needs JDK 21 or later (this is " + Runtime.version().feature()
              + "): skip it with -p threads=platform", e);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  @TearDown
  public void tearDown() throws InterruptedException {
    if (executor != null) {
      executor.shutdown();
      executor.awaitTermination(10, TimeUnit.SECONDS);
    }
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public int decodeOnePerTask() throws InterruptedException {
    CountDownLatch done = new CountDownLatch(BATCH);
    AtomicInteger ok = new AtomicInteger();
    for (int i = 0; i < BATCH; i++) {
      executor.execute(() -> {
        try {
          if (codec.decode(token).id() != null) {
            ok.incrementAndGet();
          }
        } finally {
          done.countDown();
        }
      });
    }
    done.await();
    if (ok.get() != BATCH) {
      throw new IllegalStateException("a decode failed");
    }
    return ok.get();
  }
}
