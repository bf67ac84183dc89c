package dev.sessionless.examples.webflux;

import java.util.ArrayList;
import java.util.List;

/** The shopping cart, kept in the {@code WebSession} (registered in application.properties). */
public final class Cart {
  private List<String> items = new ArrayList<>();

  /** The items, in the order added. */
  public List<String> getItems() {
    return items;
  }

  /** For Jackson. */
  public void setItems(List<String> items) {
    this.items = items;
  }
}
