package dev.sessionless.webflux;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import java.util.Map;
import reactor.core.publisher.Mono;

/** Keys, managers and routes the behaviour tests share. */
final class Fixtures {
  static final KeySet KEYS = KeySet.of(TokenKey.generate("k1", Algorithm.DIR_A256GCM));

  private Fixtures() {}

  /** A builder with the shared key, issuer and audience. */
  static SessionlessWebSessionManagerBuilder manager() {
    return SessionlessWebSessionManager.builder().keys(KEYS).issuer("https://shop.test").audience("shop");
  }

  /** A cart: {@code /add?item=x} appends to a list, {@code /show} prints it, {@code /id} the session id. */
  static Map<String, NettyApp.Route> cart() {
    return Map.of(
        "/add", (ex, s) -> {
          String item = ex.getRequest().getQueryParams().getFirst("item");
          @SuppressWarnings("unchecked")
          java.util.List<String> cart = (java.util.List<String>) s.getAttributes().get("cart");
          if (cart == null) {
            cart = new java.util.ArrayList<>();
            s.getAttributes().put("cart", cart);
          }
          cart.add(item); // changed in place: the next token must carry it
          return Mono.just("added " + item);
        },
        "/show", (ex, s) -> Mono.just("cart=" + s.getAttributes().get("cart")),
        "/id", (ex, s) -> Mono.just(s.getId()),
        "/rejection", (ex, s) -> Mono.just(String.valueOf(
            (Object) ex.getAttribute(SessionlessWebSessionManager.REJECTION_ATTRIBUTE))),
        "/logout", (ex, s) -> s.invalidate().thenReturn("bye"),
        "/login", (ex, s) -> s.changeSessionId().then(Mono.fromCallable(s::getId)));
  }
}
