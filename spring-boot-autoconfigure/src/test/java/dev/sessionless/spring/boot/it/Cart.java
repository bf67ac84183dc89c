package dev.sessionless.spring.boot.it;

import java.util.ArrayList;
import java.util.List;

/** An application's own session attribute type, registered through sessionless.attribute-types. */
public final class Cart {
  private List<String> items = new ArrayList<>();

  public List<String> getItems() {
    return items;
  }

  public void setItems(List<String> items) {
    this.items = items;
  }
}
