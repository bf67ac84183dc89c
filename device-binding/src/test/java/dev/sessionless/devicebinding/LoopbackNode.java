package dev.sessionless.devicebinding;

import dev.sessionless.core.KeySource;
import java.time.Clock;
import java.util.function.Consumer;

/**
 * One application node under test over real HTTP on loopback, whatever its stack (servlet on
 * Jetty, WebFlux on Reactor Netty): a session layer, the DBSC filter, then the application:
 * {@code POST /login?user=..} logs in and offers registration; every other path answers {@code
 * 200} with {@code user=.. bound=..} and counts the requests that reached it.
 */
public interface LoopbackNode extends AutoCloseable {
  /** {@code http://127.0.0.1:port}. */
  String base();

  /** How many requests reached the application (not refused by the DBSC filter). */
  int reached();

  @Override
  void close();

  /** Starts nodes of one stack; nodes built on the same keys share nothing else. */
  @FunctionalInterface
  interface Stack {
    /** A node with these session and DBSC keys, clock and DBSC settings. */
    LoopbackNode start(KeySource sessionKeys, KeySource dbscKeys, Clock clock, Consumer<DeviceBindingBuilder<?>> config)
        throws Exception;
  }
}
