package dev.sessionless.servlet.it;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Servlet 6.0 ways of committing a response, each after a session change: one operation per
 * path; {@code value} is stored as attribute {@code a}, and a change made after the commit as
 * {@code late}.
 */
public final class CommitServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  /** How many lines {@code /stream} writes at most before giving up on noticing a disconnect. */
  static final int STREAM_LIMIT = 2_000_000;
  /** What each {@code /stream?id=...} request found, by id. */
  static final Map<String, CompletableFuture<String>> STREAMS = new ConcurrentHashMap<>();
  /** What the async listener of each {@code /timeout?id=...} or {@code /error?id=...} saw. */
  static final Map<String, String> LISTENED = new ConcurrentHashMap<>();

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
    String op = req.getPathInfo();
    String value = req.getParameter("value");
    if (value != null) {
      req.getSession().setAttribute("a", value);
    }
    switch (op) {
      case "/version": {
        ServletContext ctx = req.getServletContext();
        PrintWriter w = res.getWriter();
        w.println("container=" + ctx.getMajorVersion() + "." + ctx.getMinorVersion());
        w.println("api=" + apiVersion());
        return;
      }
      case "/length0":
        res.setContentLength(0);
        late(req);
        return;
      case "/lengthheader":
        res.setHeader("Content-Length", "5");
        res.getOutputStream().write("hello".getBytes(StandardCharsets.US_ASCII));
        late(req);
        return;
      case "/closestream":
        res.getOutputStream().write('s');
        res.getOutputStream().close();
        late(req);
        return;
      case "/closewriter":
        res.getWriter().print("w");
        res.getWriter().close();
        late(req);
        return;
      case "/reset": {
        res.setHeader("X-Dropped", "yes");
        res.getWriter().print("dropped");
        res.reset();
        res.setContentType("text/plain;charset=UTF-8");
        res.getWriter().print("after-reset");
        return;
      }
      case "/stream":
        stream(req.getParameter("id"), res.getWriter());
        return;
      case "/timeout":
      case "/error": {
        AsyncContext ac = req.startAsync();
        ac.setTimeout(Long.parseLong(req.getParameter("timeout")));
        ac.addListener(new EndsTheRequest());
        if (op.equals("/error")) {
          throw new IllegalStateException("failed after startAsync");
        }
        return; // nobody completes it: the container times it out
      }
      default:
        res.sendError(404);
    }
  }

  /** A change after the response was committed: it cannot reach the client. */
  private static void late(HttpServletRequest req) {
    req.getSession().setAttribute("late", "lost");
  }

  /** 6.1 if {@code HttpServletResponse} on the class path has the 6.1 redirect overload. */
  static String apiVersion() {
    try {
      HttpServletResponse.class.getMethod("sendRedirect", String.class, int.class, boolean.class);
      return "6.1";
    } catch (NoSuchMethodException e) {
      return "6.0";
    }
  }

  /**
   * Streams lines (as server-sent events do) until {@code checkError()} reports the client has
   * gone, and records how that ended.
   */
  private static void stream(String id, PrintWriter w) {
    CompletableFuture<String> result = STREAMS.computeIfAbsent(id, k -> new CompletableFuture<>());
    String line = "data: " + "x".repeat(90);
    w.println("start");
    w.flush();
    for (int i = 0; i < STREAM_LIMIT; i++) {
      w.println(line);
      if (w.checkError()) {
        result.complete("error");
        return;
      }
    }
    result.complete("never noticed after " + STREAM_LIMIT + " lines");
  }

  /**
   * An application's listener that ends a timed-out or failed async request itself, through the
   * container's own {@code AsyncContext}, after one more session change.
   */
  static final class EndsTheRequest implements AsyncListener {
    @Override
    public void onTimeout(AsyncEvent event) throws IOException {
      end(event, 504, "timeout");
    }

    @Override
    public void onError(AsyncEvent event) throws IOException {
      end(event, 503, "error");
    }

    private static void end(AsyncEvent event, int status, String what) {
      String id = event.getSuppliedRequest().getParameter("id");
      if (id != null) {
        LISTENED.put(id, what + (event.getSuppliedResponse().isCommitted() ? " after the commit" : ""));
      }
      ((HttpServletRequest) event.getSuppliedRequest()).getSession().setAttribute("ended", what);
      ((HttpServletResponse) event.getSuppliedResponse()).setStatus(status);
      event.getAsyncContext().complete();
    }

    @Override
    public void onComplete(AsyncEvent event) {}

    @Override
    public void onStartAsync(AsyncEvent event) {}
  }
}
