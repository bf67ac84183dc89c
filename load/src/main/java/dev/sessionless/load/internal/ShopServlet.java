package dev.sessionless.load.internal;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.function.LongSupplier;

/**
 * The shop every servlet system under test runs: an ordinary servlet on {@code HttpSession},
 * unaware of how the session is kept, serving {@code /shop/browse?item=…}, {@code
 * /shop/add?item=…} and {@code /shop/checkout} by the rules in {@link Shop} (which the WebFlux
 * system's {@link ShopHandler} follows too). Every reply says what the session holds, {@code
 * viewed=V items=N}, so a client notices a lost session at its next request.
 *
 * <p>By itself the shop does next to no work, so a session's own cost is as large a share of a
 * request as it can be. To size that share for an application that does more, the shop can
 * spend a given amount of its thread's CPU time on every request ({@code --app-cpu}), the same
 * for every system: {@link #spend(long)}.
 */
public final class ShopServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  /** Nanoseconds of CPU time to spend on each request; read per request, so it can change. */
  private final transient LongSupplier appCpuNanos;
  /** Keeps {@link #spend}'s arithmetic from being optimised away. */
  private static volatile long sink;

  /** A shop that does no work of its own beyond keeping the session. */
  public ShopServlet() {
    this(() -> 0);
  }

  /**
   * A shop that spends {@code appCpuNanos} nanoseconds of its thread's CPU time on each request,
   * standing for the application's own work (rendering, queries).
   */
  public ShopServlet(LongSupplier appCpuNanos) {
    this.appCpuNanos = appCpuNanos;
  }

  /**
   * Spends at least {@code nanos} nanoseconds of the calling thread's CPU time (not wall-clock
   * time: a thread that is descheduled meanwhile does not count that time), overshooting by about
   * a microsecond.
   *
   * @throws UnsupportedOperationException if this JVM cannot measure a thread's CPU time, or
   *     has that measurement turned off ({@link #canSpend()} says which beforehand)
   */
  public static void spend(long nanos) {
    if (nanos <= 0) {
      return;
    }
    long start = THREADS.getCurrentThreadCpuTime();
    if (start < 0) { // measurement turned off: the clock would never reach the end
      throw new UnsupportedOperationException("thread CPU time measurement is off in this JVM");
    }
    long until = start + nanos;
    long x = sink | 1;
    do {
      for (int i = 0; i < 512; i++) {
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
      }
    } while (THREADS.getCurrentThreadCpuTime() < until);
    sink = x;
  }

  /** Whether this JVM can measure a thread's CPU time, which {@link #spend} needs. */
  public static boolean canSpend() {
    return THREADS.isCurrentThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled();
  }

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
    spend(appCpuNanos.getAsLong());
    HttpSession session = req.getSession();
    String body = Shop.serve(req.getPathInfo() == null ? "" : req.getPathInfo(), req.getParameter("item"),
        new Shop.Session(session::getAttribute, session::setAttribute, session::removeAttribute));
    if (body == null) {
      res.sendError(HttpServletResponse.SC_NOT_FOUND);
      return;
    }
    res.setContentType(Shop.CONTENT_TYPE);
    res.getWriter().print(body);
  }
}
