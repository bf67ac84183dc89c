package dev.sessionless.examples;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenKey;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;

/**
 * The core in one screen: three "nodes" share one key set and carry a shopping cart in a
 * token, each node reading what another wrote; then a tampered token is rejected with its
 * reason. Run: {@code mvn -q -B -ntp -pl examples -am package -DskipTests -Ddemo=CoreDemo}.
 */
public final class CoreDemo {
  /** One line of the cart. */
  public record Item(String sku, int qty) {}

  /** The application state this demo keeps in the session. */
  public record Cart(List<Item> items) {
    Cart add(Item item) {
      List<Item> next = new java.util.ArrayList<>(items);
      next.add(item);
      return new Cart(List.copyOf(next));
    }
  }

  private CoreDemo() {}

  /** Runs the demo, printing to standard output. */
  public static void main(String[] args) {
    run(System.out);
  }

  /** Runs the demo, printing to {@code out}; returns the final cart. */
  public static Cart run(PrintStream out) {
    KeySet keys = KeySet.of(TokenKey.generate("2026-11", Algorithm.HS256));
    TokenCodec[] nodes = new TokenCodec[3];
    for (int i = 0; i < nodes.length; i++) {
      nodes[i] = TokenCodec.builder().keys(keys).issuer("https://shop.example").audience("shop")
          .timeToLive(Duration.ofMinutes(30)).build();
    }
    String token = nodes[0].encode(Claims.builder().subject("alice").put("cart", new Cart(List.of())).build());
    String[] skus = {"espresso-beans", "grinder", "filter-papers", "mug"};
    for (int step = 0; step < skus.length; step++) {
      TokenCodec node = nodes[step % nodes.length];
      SessionToken session = node.decode(token);
      Cart cart = session.get("cart", Cart.class).orElseThrow();
      token = node.encode(session.toClaims().put("cart", cart.add(new Item(skus[step], 1))).build());
      out.printf("node %d: %s added, token is %d chars%n", step % nodes.length + 1, skus[step], token.length());
    }
    SessionToken last = nodes[1].decode(token);
    Cart cart = last.get("cart", Cart.class).orElseThrow();
    out.println("cart read on node 2: " + cart.items().size() + " items for " + last.subject().orElseThrow());

    char[] forged = token.toCharArray();
    int i = token.indexOf('.') + 5;
    forged[i] = forged[i] == 'A' ? 'B' : 'A';
    try {
      nodes[2].decode(new String(forged));
      out.println("tampered token ACCEPTED (this must never happen)");
    } catch (TokenException e) {
      out.println("tampered token rejected: " + e.reason());
    }
    return cart;
  }
}
