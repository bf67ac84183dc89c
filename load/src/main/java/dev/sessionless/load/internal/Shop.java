package dev.sessionless.load.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The shop's rules, once, for every front end that serves it ({@link ShopServlet} on {@code
 * HttpSession}, {@link ShopHandler} on WebFlux's {@code WebSession}): what each route does to the
 * session and what it answers. {@code browse} records the item among the last five viewed, {@code
 * add} puts it in the cart, {@code checkout} empties the cart; every answer is {@code viewed=V
 * items=N} (for a checkout, N is what it found in the cart). A session holds a small profile, the
 * viewed list and the cart: a few hundred bytes of JSON.
 */
final class Shop {
  /** The content type of every answer. */
  static final String CONTENT_TYPE = "text/plain;charset=UTF-8";

  /**
   * A session's attributes as the shop uses them, whatever keeps the session: how to read, set
   * and remove one.
   */
  record Session(Function<String, Object> get, BiConsumer<String, Object> put, Consumer<String> remove) {}

  private Shop() {}

  /**
   * Serves one request: {@code action} is the path after {@code /shop} ({@code /browse}, {@code
   * /add}, {@code /checkout}), {@code item} the query's {@code item} or {@code null}.
   *
   * @return the answer's body, or {@code null} for an unknown action (a 404; the session still
   *     gets its profile, as on any request)
   */
  static String serve(String action, String item, Session session) {
    if (session.get().apply("profile") == null) {
      Map<String, String> profile = new LinkedHashMap<>();
      profile.put("locale", "en-GB");
      profile.put("currency", "EUR");
      profile.put("segment", "returning-customer");
      profile.put("campaign", "autumn-espresso-2026");
      session.put().accept("profile", profile);
    }
    switch (action) {
      case "/browse" -> {
        List<String> viewed = list(session, "viewed");
        viewed.add(item == null ? "none" : item);
        if (viewed.size() > 5) {
          viewed.remove(0);
        }
        session.put().accept("viewed", viewed);
        return "viewed=" + viewed.size() + " items=" + list(session, "cart").size();
      }
      case "/add" -> {
        List<String> cart = list(session, "cart");
        cart.add(item == null ? "none" : item);
        session.put().accept("cart", cart);
        return "viewed=" + list(session, "viewed").size() + " items=" + cart.size();
      }
      case "/checkout" -> {
        List<String> cart = list(session, "cart");
        session.remove().accept("cart");
        return "viewed=" + list(session, "viewed").size() + " items=" + cart.size();
      }
      default -> {
        return null;
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static List<String> list(Session session, String name) {
    Object value = session.get().apply(name);
    return value instanceof List<?> l ? new ArrayList<>((List<String>) l) : new ArrayList<>();
  }
}
