package dev.sessionless.load.internal;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The shop every system under test runs: an ordinary servlet on {@code HttpSession}, unaware of
 * how the session is kept. {@code /shop/browse?item=…} records the item among the last five
 * viewed, {@code /shop/add?item=…} puts it in the cart, {@code /shop/checkout} empties the cart.
 * Every reply says what the session holds, {@code viewed=V items=N} (for a checkout, N is what
 * it found in the cart), so a client notices a lost session at its next request. A session holds
 * a small profile, the viewed list and the cart: a few hundred bytes of JSON.
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
    if (session.getAttribute("profile") == null) {
      Map<String, String> profile = new LinkedHashMap<>();
      profile.put("locale", "en-GB");
      profile.put("currency", "EUR");
      profile.put("segment", "returning-customer");
      profile.put("campaign", "autumn-espresso-2026");
      session.setAttribute("profile", profile);
    }
    String item = req.getParameter("item");
    String action = req.getPathInfo() == null ? "" : req.getPathInfo();
    res.setContentType("text/plain;charset=UTF-8");
    switch (action) {
      case "/browse" -> {
        List<String> viewed = list(session, "viewed");
        viewed.add(item == null ? "none" : item);
        if (viewed.size() > 5) {
          viewed.remove(0);
        }
        session.setAttribute("viewed", viewed);
        res.getWriter().print("viewed=" + viewed.size() + " items=" + list(session, "cart").size());
      }
      case "/add" -> {
        List<String> cart = list(session, "cart");
        cart.add(item == null ? "none" : item);
        session.setAttribute("cart", cart);
        res.getWriter().print("viewed=" + list(session, "viewed").size() + " items=" + cart.size());
      }
      case "/checkout" -> {
        List<String> cart = list(session, "cart");
        session.removeAttribute("cart");
        res.getWriter().print("viewed=" + list(session, "viewed").size() + " items=" + cart.size());
      }
      default -> res.sendError(HttpServletResponse.SC_NOT_FOUND);
    }
  }

  @SuppressWarnings("unchecked")
  private static List<String> list(HttpSession session, String name) {
    Object value = session.getAttribute(name);
    return value instanceof List<?> l ? new ArrayList<>((List<String>) l) : new ArrayList<>();
  }
}
