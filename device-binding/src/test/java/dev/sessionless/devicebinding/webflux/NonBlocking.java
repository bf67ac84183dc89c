package dev.sessionless.devicebinding.webflux;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import reactor.blockhound.BlockHound;
import reactor.blockhound.BlockingOperationError;
import reactor.netty.resources.LoopResources;

/**
 * BlockHound for the WebFlux tests, installed once per test JVM with Reactor's and Netty's
 * integrations and no allowance: every blocking call on an event loop is recorded and fails the
 * call. Each test class runs its servers on event loops of its own, made after the install
 * (BlockHound decides once per thread whether it may block, so loops started earlier would go
 * unwatched).
 */
final class NonBlocking {
  /** Every blocking call BlockHound saw on a non-blocking thread, as "Class.method". */
  static final List<String> BLOCKED = new CopyOnWriteArrayList<>();

  static {
    BlockHound.builder().loadIntegrations()
        .blockingMethodCallback(m -> {
          BLOCKED.add(m.getClassName() + "." + m.getName());
          throw new BlockingOperationError(m);
        }).install();
  }

  private NonBlocking() {}

  /** Installs BlockHound (once), then makes event loops for one test class. */
  static LoopResources loops(String name) {
    return LoopResources.create(name, 2, true);
  }

  /** Fails if any blocking call was seen on an event loop, then forgets them. */
  static void assertNoneBlocked() {
    List<String> seen = List.copyOf(BLOCKED);
    BLOCKED.clear();
    assertEquals(List.of(), seen, "blocking calls on an event loop");
  }

  /** Stops a test class's loops. */
  static void stop(LoopResources loops) {
    loops.disposeLater().block(Duration.ofSeconds(30));
  }
}
