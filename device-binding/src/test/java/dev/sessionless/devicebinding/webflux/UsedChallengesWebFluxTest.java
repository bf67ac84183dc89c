package dev.sessionless.devicebinding.webflux;

import dev.sessionless.devicebinding.LoopbackNode;
import dev.sessionless.devicebinding.UsedChallengesScenarios;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link UsedChallengesScenarios} through {@link DeviceBindingWebFilter} on two real Reactor Netty
 * nodes, under BlockHound: a replayed refresh proof refused with the in-memory and the Redis
 * store, Redis going down, and no blocking call on an event loop (the store's look-up is its
 * in-memory copy; its write, a network call for Redis, runs off the event loop).
 */
@Timeout(120)
class UsedChallengesWebFluxTest extends UsedChallengesScenarios {
  @RegisterExtension
  static final NonBlocking NON_BLOCKING = new NonBlocking("dbsc-webflux-used-challenges-test");

  @Override
  protected LoopbackNode.Stack stack() {
    return NON_BLOCKING.netty();
  }
}
