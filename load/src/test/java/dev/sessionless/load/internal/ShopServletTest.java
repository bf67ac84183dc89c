package dev.sessionless.load.internal;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.junit.jupiter.api.Test;

class ShopServletTest {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  /** The application's work the shop stands in for is CPU time of the serving thread, at least as much as asked. */
  @Test
  void spendUsesAtLeastTheAskedCpuTimeOfTheCallingThread() {
    assertTrue(ShopServlet.canSpend(), "HotSpot on Linux measures a thread's CPU time");
    long before = THREADS.getCurrentThreadCpuTime();
    ShopServlet.spend(5_000_000);
    long spent = THREADS.getCurrentThreadCpuTime() - before;
    assertTrue(spent >= 5_000_000, "spent " + spent + " ns");
    before = THREADS.getCurrentThreadCpuTime();
    ShopServlet.spend(0);
    ShopServlet.spend(-1);
    long nothing = THREADS.getCurrentThreadCpuTime() - before;
    assertTrue(nothing < 5_000_000, "zero or less spends nothing, yet " + nothing + " ns went");
  }
}
