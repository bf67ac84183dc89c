package com.example.shop;

import java.util.ArrayList;
import java.util.List;

/** The application type the root README's web.xml registers ({@code attribute-types}). */
public final class Cart {
  private List<String> items = new ArrayList<>();

  /** The items, in the order they were added. */
  public List<String> getItems() {
    return items;
  }

  /** Replaces the items (for Jackson). */
  public void setItems(List<String> items) {
    this.items = items;
  }
}
