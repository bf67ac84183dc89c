package dev.sessionless.servlet.it;

import java.util.ArrayList;
import java.util.List;

/** A mutable registered attribute type. */
public final class Cart {
  public List<String> items = new ArrayList<>();
}
