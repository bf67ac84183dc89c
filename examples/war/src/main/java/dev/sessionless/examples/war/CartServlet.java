package dev.sessionless.examples.war;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;

/**
 * Plain servlet session code, unaware of tokens: {@code GET /cart} shows the cart and the session
 * id, {@code POST /cart?item=...} adds an item, {@code DELETE /cart} ends the session.
 */
public final class CartServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    HttpSession session = req.getSession(false);
    Cart cart = session == null ? null : (Cart) session.getAttribute("cart");
    write(resp, (cart == null ? "[]" : cart.getItems().toString()) + " " + (session == null ? "-" : session.getId()));
  }

  @Override
  protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    String item = req.getParameter("item");
    if (item == null || item.isBlank()) {
      resp.sendError(HttpServletResponse.SC_BAD_REQUEST, "item is required");
      return;
    }
    HttpSession session = req.getSession();
    Cart cart = (Cart) session.getAttribute("cart");
    if (cart == null) {
      cart = new Cart();
    }
    cart.getItems().add(item);
    session.setAttribute("cart", cart); // the changed cart travels in the next token
    write(resp, cart.getItems().toString());
  }

  @Override
  protected void doDelete(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    HttpSession session = req.getSession(false);
    if (session != null) {
      session.invalidate(); // clears the cookie
    }
    write(resp, "bye");
  }

  private static void write(HttpServletResponse resp, String body) throws IOException {
    resp.setContentType("text/plain;charset=UTF-8");
    resp.getWriter().print(body);
  }
}
