package dev.sessionless.servlet.it;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Changes a {@link Basket} record (and JDK list and map attributes) in place, without {@code
 * setAttribute}, then ends the response one way or another: one operation per path, {@code sku}
 * the line added. {@code /read} prints the session and changes nothing.
 */
final class BasketServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
    res.setContentType("text/plain;charset=UTF-8");
    String sku = req.getParameter("sku");
    HttpSession s = req.getSession();
    switch (String.valueOf(req.getPathInfo())) {
      case "/set": {
        List<Basket.Line> lines = new ArrayList<>();
        lines.add(new Basket.Line(sku, 1, 129_900L));
        s.setAttribute("basket", new Basket("ann", lines, new LinkedHashMap<>()));
        s.setAttribute("tags", new ArrayList<>(List.of("t0")));
        s.setAttribute("prefs", new LinkedHashMap<>(Map.of("p0", "v0")));
        res.getWriter().print("set");
        return;
      }
      case "/set-then-change": {
        // Changed in place after setAttribute, before the body: the change must be saved.
        List<Basket.Line> lines = new ArrayList<>();
        lines.add(new Basket.Line("set", 1, 100L));
        Basket b = new Basket("ann", lines, new LinkedHashMap<>());
        List<String> tags = new ArrayList<>(List.of("t-set"));
        s.setAttribute("basket", b);
        s.setAttribute("tags", tags);
        b.lines().add(new Basket.Line(sku, 2, 200L));
        tags.add(sku);
        res.getWriter().print("ok");
        return;
      }
      case "/set-unchanged": {
        s.setAttribute("basket", new Basket("bob", new ArrayList<>(List.of(new Basket.Line(sku, 1, 1L))), new LinkedHashMap<>()));
        res.getWriter().print("ok");
        return;
      }
      case "/read":
        describe(s, res.getWriter());
        return;
      case "/add-writer":
        basket(s).lines().add(new Basket.Line(sku, 1, 129_900L));
        res.getWriter().print("ok");
        return;
      case "/add-stream":
        basket(s).lines().add(new Basket.Line(sku, 1, 129_900L));
        res.getOutputStream().write("ok".getBytes(StandardCharsets.US_ASCII));
        return;
      case "/add-silent":
        basket(s).lines().add(new Basket.Line(sku, 1, 129_900L)); // no body at all
        return;
      case "/write-then-add": {
        PrintWriter w = res.getWriter();
        w.print("first ");
        basket(s).lines().add(new Basket.Line(sku, 1, 129_900L)); // after the first byte, before the commit
        w.print("ok");
        return;
      }
      case "/add-senderror":
        basket(s).lines().add(new Basket.Line(sku, 1, 129_900L));
        res.sendError(409);
        return;
      case "/add-redirect":
        basket(s).lines().add(new Basket.Line(sku, 1, 129_900L));
        res.sendRedirect("/r/read");
        return;
      case "/add-async": {
        AsyncContext ac = req.startAsync();
        ac.start(() -> {
          try {
            HttpSession as = ((HttpServletRequest) ac.getRequest()).getSession();
            basket(as).lines().add(new Basket.Line(sku, 1, 129_900L));
            ac.getResponse().getWriter().print("async");
            ac.complete();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
        return;
      }
      case "/add-flush-add": {
        Basket b = basket(s);
        b.lines().add(new Basket.Line(sku, 1, 129_900L));
        res.getWriter().print("flushed");
        res.flushBuffer();
        b.lines().add(new Basket.Line("late", 1, 129_900L)); // after the commit: cannot be delivered
        res.getWriter().print(" committed=" + res.isCommitted());
        return;
      }
      case "/replace-equal": {
        List<Basket.Line> lines = basket(s).lines();
        Basket.Line first = lines.get(0);
        lines.set(0, new Basket.Line(new String(first.sku().toCharArray()), first.quantity(), first.cents()));
        res.getWriter().print("ok");
        return;
      }
      case "/bump": {
        List<Basket.Line> lines = basket(s).lines();
        Basket.Line first = lines.get(0);
        lines.set(0, new Basket.Line(first.sku(), first.quantity() + 1, first.cents()));
        res.getWriter().print("ok");
        return;
      }
      case "/swap": {
        List<Basket.Line> lines = basket(s).lines();
        lines.add(lines.remove(0)); // the same lines, another order
        res.getWriter().print("ok");
        return;
      }
      case "/note":
        basket(s).notes().computeIfAbsent(req.getParameter("key"), k -> new ArrayList<>()).add(sku);
        res.getWriter().print("ok");
        return;
      case "/tag":
        tags(s).add(sku);
        res.getWriter().print("ok");
        return;
      case "/pref":
        prefs(s).put(sku, "on");
        res.getWriter().print("ok");
        return;
      default:
        res.sendError(404);
    }
  }

  private static Basket basket(HttpSession s) {
    return (Basket) s.getAttribute("basket");
  }

  @SuppressWarnings("unchecked")
  private static List<String> tags(HttpSession s) {
    return (List<String>) s.getAttribute("tags");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, String> prefs(HttpSession s) {
    return (Map<String, String>) s.getAttribute("prefs");
  }

  /** The session as "key=value" lines: the basket's lines, its notes, the tags and the prefs. */
  static void describe(HttpSession s, PrintWriter w) {
    Basket b = basket(s);
    List<String> lines = new ArrayList<>();
    if (b != null) {
      for (Basket.Line l : b.lines()) {
        lines.add(l.sku() + "x" + l.quantity());
      }
    }
    w.println("lines=" + lines);
    w.println("notes=" + (b == null ? null : b.notes()));
    w.println("tags=" + tags(s));
    w.println("prefs=" + prefs(s));
  }
}
