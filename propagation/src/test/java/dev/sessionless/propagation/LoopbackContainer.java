package dev.sessionless.propagation;

import java.net.URI;

/** A real servlet container serving on a free loopback port. */
interface LoopbackContainer extends AutoCloseable {
  /** {@code http://127.0.0.1:<port>/}. */
  URI root();
}
