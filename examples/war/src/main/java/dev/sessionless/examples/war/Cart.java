package dev.sessionless.examples.war;

import java.util.ArrayList;
import java.util.List;

/**
 * The shop's own session attribute: registered in web.xml ({@code attribute-types}), kept as JSON in the token.
 * The same as spring-boot-shop's {@code Cart} on purpose: each example is a whole application, built and
 * deployed alone, and sharing 19 lines would take a module both depend on.
 */
public final class Cart {
  private List<String> items = new ArrayList<>();

  /** The items, in the order they were added. */
  public List<String> getItems() {
    return items;
  }

  /** Replaces the items (Jackson reads the cart back through this). */
  public void setItems(List<String> items) {
    this.items = items;
  }
}
