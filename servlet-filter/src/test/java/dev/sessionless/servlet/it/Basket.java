package dev.sessionless.servlet.it;

import java.util.List;
import java.util.Map;

/**
 * A registered attribute type as modern code writes it: a record, whose list and map are
 * mutable (Jackson reads them as {@code ArrayList} and {@code LinkedHashMap}), so it can change
 * in place without a {@code setAttribute}.
 */
public record Basket(String owner, List<Line> lines, Map<String, List<String>> notes) {
  /** One line of the basket: immutable ({@code cents} past the JDK's cache of boxed values). */
  public record Line(String sku, int quantity, long cents) {}
}
