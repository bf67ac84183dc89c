package dev.sessionless.servlet.it;

import dev.sessionless.core.SessionTooLargeException;
import dev.sessionless.servlet.SessionlessFilter;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** An ordinary servlet application using {@code HttpSession}; one operation per path. */
public final class AppServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse res) throws ServletException, IOException {
    Object included = req.getAttribute(jakarta.servlet.RequestDispatcher.INCLUDE_PATH_INFO);
    String path = included != null ? (String) included : req.getPathInfo();
    String op = path == null ? "/read" : path;
    String name = req.getParameter("name") == null ? "a" : req.getParameter("name");
    String value = req.getParameter("value");
    res.setContentType("text/plain;charset=UTF-8");
    HttpSession s;
    switch (op) {
      case "/new":
        s = req.getSession();
        describe(req, res.getWriter());
        return;
      case "/read":
        describe(req, res.getWriter());
        return;
      case "/set":
        req.getSession().setAttribute(name, value);
        describe(req, res.getWriter());
        return;
      case "/setint":
        req.getSession().setAttribute(name, Integer.valueOf(value));
        describe(req, res.getWriter());
        return;
      case "/setcart":
        Cart cart = new Cart();
        cart.items.add(value);
        req.getSession().setAttribute("cart", cart);
        describe(req, res.getWriter());
        return;
      case "/setcartthenadd": {
        // Changed in place after setAttribute, before the body: the change must still be saved.
        Cart c = new Cart();
        c.items.add(value);
        req.getSession().setAttribute("cart", c);
        c.items.add(req.getParameter("then"));
        res.getWriter().println("ok");
        return;
      }
      case "/setdeep": {
        req.getSession().setAttribute(name, nested(Integer.parseInt(value)));
        res.getWriter().println("ok");
        return;
      }
      case "/setquiet":
        // Sets one attribute and reads none: every other value is carried from the token unread.
        req.getSession().setAttribute(name, value);
        res.getWriter().println("ok");
        return;
      case "/addtocart":
        ((Cart) req.getSession().getAttribute("cart")).items.add(value);
        res.getWriter().println("ok");
        return;
      case "/remove":
        req.getSession().removeAttribute(name);
        describe(req, res.getWriter());
        return;
      case "/invalidate": {
        s = req.getSession(false);
        s.invalidate();
        PrintWriter w = res.getWriter();
        try {
          s.getAttribute("a");
          w.println("afterInvalidate=readable");
        } catch (IllegalStateException e) {
          w.println("afterInvalidate=IllegalStateException");
        }
        describe(req, w);
        return;
      }
      case "/change": {
        s = req.getSession(false);
        String old = s.getId();
        String now = req.changeSessionId();
        PrintWriter w = res.getWriter();
        w.println("old=" + old);
        w.println("changed=" + now);
        w.println("sameObjectId=" + s.getId());
        describe(req, w);
        return;
      }
      case "/maxinactive":
        req.getSession().setMaxInactiveInterval(Integer.parseInt(value));
        describe(req, res.getWriter());
        return;
      case "/redirect":
        req.getSession().setAttribute("a", value);
        res.sendRedirect("/s/read");
        return;
      case "/senderror":
        req.getSession().setAttribute("a", value);
        res.sendError(403);
        return;
      case "/throw":
        req.getSession().setAttribute("a", value);
        throw new IllegalStateException("boom");
      case "/big": {
        req.getSession().setAttribute("a", value);
        byte[] chunk = new byte[1024];
        java.util.Arrays.fill(chunk, (byte) 'x');
        int kb = Integer.parseInt(req.getParameter("kb"));
        for (int i = 0; i < kb; i++) {
          res.getOutputStream().write(chunk);
        }
        return;
      }
      case "/bigwriter": {
        PrintWriter w = res.getWriter();
        w.println("start");
        req.getSession().setAttribute("a", value);
        String line = "y".repeat(1023);
        int kb = Integer.parseInt(req.getParameter("kb"));
        for (int i = 0; i < kb; i++) {
          w.println(line);
        }
        return;
      }
      case "/flush": {
        req.getSession().setAttribute("a", value);
        PrintWriter w = res.getWriter();
        w.println("flushed");
        w.flush();
        res.flushBuffer();
        req.getSession().setAttribute("late", "lost");
        w.println("committed=" + res.isCommitted());
        return;
      }
      case "/length": {
        req.getSession().setAttribute("a", value);
        res.setContentLength(5);
        res.getOutputStream().write("hello".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        req.getSession().setAttribute("late", "lost");
        return;
      }
      case "/async": {
        AsyncContext ac = req.startAsync();
        String mode = req.getParameter("mode");
        ac.start(() -> {
          try {
            HttpServletRequest ar = (HttpServletRequest) ac.getRequest();
            ar.getSession().setAttribute("a", value);
            if ("dispatch".equals(mode)) {
              ac.dispatch("/s/read");
            } else {
              ac.getResponse().getWriter().println("async=done");
              ac.complete();
            }
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        });
        return;
      }
      case "/forward":
        req.getSession().setAttribute("a", value);
        req.getRequestDispatcher("/s/read").forward(req, res);
        return;
      case "/include": {
        PrintWriter w = res.getWriter();
        req.getSession().setAttribute("a", value);
        w.println("before-include");
        req.getRequestDispatcher("/s/setinner?value=" + value + "-inner").include(req, res);
        w.println("after-include a=" + req.getSession().getAttribute("a")
            + " inner=" + req.getSession().getAttribute("inner"));
        return;
      }
      case "/setinner":
        req.getSession().setAttribute("inner", req.getParameter("value"));
        res.getWriter().println("included");
        return;
      case "/bind":
        req.getSession().setAttribute(name, new BindingProbe(value));
        describe(req, res.getWriter());
        return;
      case "/rebind": {
        HttpSession session = req.getSession();
        session.setAttribute(name, session.getAttribute(name));
        describe(req, res.getWriter());
        return;
      }
      case "/setlarge":
        req.getSession().setAttribute("large", "z".repeat(Integer.parseInt(value)));
        describe(req, res.getWriter());
        return;
      case "/trylarge":
        try {
          req.getSession().setAttribute(name == null ? "large" : name, "z".repeat(Integer.parseInt(value)));
        } catch (SessionTooLargeException e) {
          res.getWriter().println("refused=" + e.attribute() + ":" + e.budgetBytes());
          res.getWriter().println("message=" + e.getMessage());
        }
        describe(req, res.getWriter());
        return;
      case "/refuse": {
        PrintWriter w = res.getWriter();
        HttpSession session = req.getSession();
        Object v = "unregistered".equals(value) ? new StringBuilder("sb")
            : "opaque".equals(value) ? new Opaque("o")
            : "lonesurrogate".equals(value) ? "a\uD800b"
            : "deep31".equals(value) ? nested(31)
            : List.of(1L);
        try {
          session.setAttribute("bad", v);
          w.println("refused=no");
        } catch (IllegalArgumentException e) {
          w.println("refused=" + e.getMessage());
        }
        return;
      }
      default:
        res.sendError(404);
    }
  }

  /** A list nested {@code levels} deep: {@code [[[...["x"]...]]]}. */
  static Object nested(int levels) {
    Object deep = "x";
    for (int i = 0; i < levels; i++) {
      deep = List.of(deep);
    }
    return deep;
  }

  /** Writes the session as "key=value" lines. */
  static void describe(HttpServletRequest req, PrintWriter w) {
    w.println("rejection=" + req.getAttribute(SessionlessFilter.REJECTION_ATTRIBUTE));
    w.println("requested=" + req.getRequestedSessionId());
    w.println("requestedValid=" + req.isRequestedSessionIdValid());
    w.println("fromCookie=" + req.isRequestedSessionIdFromCookie());
    HttpSession s = req.getSession(false);
    if (s == null) {
      w.println("session=none");
      return;
    }
    w.println("session=" + s.getId());
    w.println("new=" + s.isNew());
    w.println("created=" + s.getCreationTime());
    w.println("lastAccessed=" + s.getLastAccessedTime());
    w.println("maxInactive=" + s.getMaxInactiveInterval());
    List<String> names = Collections.list(s.getAttributeNames());
    Collections.sort(names);
    w.println("names=" + names);
    for (String n : new ArrayList<>(names)) {
      Object v;
      try {
        v = s.getAttribute(n);
      } catch (IllegalStateException e) {
        v = "ISE:" + e.getMessage();
      }
      w.println("attr." + n + "=" + (v instanceof Cart ? ((Cart) v).items : v instanceof BindingProbe ? ((BindingProbe) v).label : v)
          + (v == null ? "" : ":" + v.getClass().getSimpleName()));
    }
  }
}
