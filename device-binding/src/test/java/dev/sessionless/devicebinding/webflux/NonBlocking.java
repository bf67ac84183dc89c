package dev.sessionless.devicebinding.webflux;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sessionless.devicebinding.LoopbackNode;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import reactor.blockhound.BlockHound;
import reactor.blockhound.BlockingOperationError;
import reactor.netty.resources.LoopResources;

/**
 * BlockHound for the WebFlux tests, as an extension a test class registers in a static field:
 * installed once per test JVM with Reactor's and Netty's integrations and no allowance, every
 * blocking call on an event loop is recorded and fails the call, and each test fails if any was
 * seen. Each test class runs its Reactor Netty nodes on event loops of its own, made after the
 * install (BlockHound decides once per thread whether it may block, so loops started earlier
 * would go unwatched), and stopped after the class.
 */
final class NonBlocking implements AfterEachCallback, AfterAllCallback {
  /** Every blocking call BlockHound saw on a non-blocking thread, as "Class.method". */
  static final List<String> BLOCKED = new CopyOnWriteArrayList<>();

  static {
    BlockHound.builder().loadIntegrations()
        .blockingMethodCallback(m -> {
          BLOCKED.add(m.getClassName() + "." + m.getName());
          throw new BlockingOperationError(m);
        }).install();
  }

  /** The test class's event loops. */
  final LoopResources loops;

  /** Installs BlockHound (once), then makes event loops called {@code name}. */
  NonBlocking(String name) {
    loops = LoopResources.create(name, 2, true);
  }

  /** WebFlux nodes ({@link DbscNettyNode}) on these loops. */
  LoopbackNode.Stack netty() {
    return (sessionKeys, dbscKeys, clock, config) -> new DbscNettyNode(sessionKeys, dbscKeys, clock, config, loops);
  }

  /** Fails the test if any blocking call was seen on an event loop, then forgets them. */
  @Override
  public void afterEach(ExtensionContext context) {
    List<String> seen = List.copyOf(BLOCKED);
    BLOCKED.clear();
    assertEquals(List.of(), seen, "blocking calls on an event loop");
  }

  /** Stops the loops. */
  @Override
  public void afterAll(ExtensionContext context) {
    loops.disposeLater().block(Duration.ofSeconds(30));
  }
}
