package dev.sessionless.core.leak;

import java.util.concurrent.Callable;

/**
 * The negative control for {@code ClassLoaderLeakTest}: does what {@link LeakDriver} does and then
 * leaves an object of its own class in a {@code ThreadLocal} of the running thread, the leak the
 * test must be able to see.
 */
public class LeakingDriver implements Callable<String> {
  private static final ThreadLocal<Object> KEPT = new ThreadLocal<>();

  @Override
  public String call() {
    String r = new LeakDriver().call();
    KEPT.set(new LeakingDriver());
    return r;
  }
}
