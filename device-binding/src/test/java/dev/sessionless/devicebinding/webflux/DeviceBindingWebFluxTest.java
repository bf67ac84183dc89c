package dev.sessionless.devicebinding.webflux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.sessionless.devicebinding.DbscLoopbackScenarios;
import dev.sessionless.devicebinding.LoopbackNode;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.blockhound.BlockingOperationError;

/**
 * {@link DbscLoopbackScenarios} through {@link DeviceBindingWebFilter} on two real Reactor Netty
 * nodes with the token {@code WebSession}, under BlockHound: registration, use, refresh on either
 * node, stolen cookies, replayed and foreign proofs, bad input; and no blocking call on an event
 * loop in any of it.
 */
@Timeout(120)
class DeviceBindingWebFluxTest extends DbscLoopbackScenarios {
  @RegisterExtension
  static final NonBlocking NON_BLOCKING = new NonBlocking("dbsc-webflux-test");

  @Override
  protected LoopbackNode.Stack stack() {
    return NON_BLOCKING.netty();
  }

  /** The guard is live: a blocking call on one of these loops is seen and fails (else the other tests prove nothing). */
  @Test
  void blockHoundWatchesTheseEventLoops() throws Exception {
    CompletableFuture<Throwable> seen = new CompletableFuture<>();
    NON_BLOCKING.loops.onServer(true).next().execute(() -> {
      try {
        Thread.sleep(1);
        seen.complete(null);
      } catch (Throwable t) {
        seen.complete(t);
      }
    });
    assertInstanceOf(BlockingOperationError.class, seen.get(30, TimeUnit.SECONDS));
    assertEquals(List.of("java.lang.Thread.sleep"), List.copyOf(NonBlocking.BLOCKED));
    NonBlocking.BLOCKED.clear();
  }
}
