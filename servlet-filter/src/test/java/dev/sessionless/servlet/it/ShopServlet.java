package dev.sessionless.servlet.it;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Collections;
import java.util.List;
import java.util.TreeMap;

/**
 * A small shop as an existing application would write it, with plain {@code HttpSession} calls:
 * a cart changed in place, a wizard whose answers are separate attributes, and a summary. Every
 * reply names the node that served it.
 */
final class ShopServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private final String node;

  ShopServlet(String node) {
    this.node = node;
  }

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
    res.setContentType("text/plain;charset=UTF-8");
    HttpSession session = req.getSession();
    switch (String.valueOf(req.getPathInfo())) {
      case "/add": {
        Cart cart = (Cart) session.getAttribute("cart");
        if (cart == null) {
          cart = new Cart();
          session.setAttribute("cart", cart);
        }
        cart.items.add(req.getParameter("item")); // mutated in place, as real code does
        break;
      }
      case "/wizard":
        session.setAttribute("step." + req.getParameter("step"), req.getParameter("answer"));
        break;
      case "/summary":
        break;
      default:
        res.sendError(404);
        return;
    }
    PrintWriter w = res.getWriter();
    w.println("node=" + node);
    w.println("session=" + session.getId());
    Cart cart = (Cart) session.getAttribute("cart");
    List<String> items = cart == null ? List.of() : cart.items;
    w.println("cart=" + String.join(",", items));
    TreeMap<String, Object> steps = new TreeMap<>();
    for (String name : Collections.list(session.getAttributeNames())) {
      if (name.startsWith("step.")) {
        steps.put(name, session.getAttribute(name));
      }
    }
    w.println("wizard=" + steps);
  }
}
