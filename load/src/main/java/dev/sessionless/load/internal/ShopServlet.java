package dev.sessionless.load.internal;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The shop every system under test runs: an ordinary servlet on {@code HttpSession}, unaware of
 * how the session is kept. {@code /shop/browse?item=…} records the item among the last five
 * viewed, {@code /shop/add?item=…} puts it in the cart, {@code /shop/checkout} empties the cart.
 * Every reply says what the session holds, {@code viewed=V items=N} (for a checkout, N is what
 * it found in the cart), so a client notices a lost session at its next request. A session holds
 * a small profile, the viewed list and the cart: a few hundred bytes of JSON.
 */
public final class ShopServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
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
