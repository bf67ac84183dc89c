package dev.sessionless.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.load.internal.ShopWorkload;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The shop's requests: what a user asks for never repeats soon, so neither does its session. */
class ShopWorkloadTest {
  @Test
  void itemIdsKeepOneLengthAndDoNotComeBackWithinAMillionRequests() {
    ShopWorkload shop = new ShopWorkload(List.of(URI.create("http://127.0.0.1:1/")), ShopWorkload.Routing.STICKY);
    Workload.VirtualUser user = shop.newUser(7);
    Set<String> items = new HashSet<>();
    Set<Integer> lengths = new HashSet<>();
    int asked = 0;
    for (int i = 0; i < 6_000; i++) {
      HttpRequest r = user.next();
      String q = r.uri().getQuery();
      if (q != null) {
        asked++;
        items.add(q);
        lengths.add(q.length());
      }
    }
    assertTrue(asked >= 5_000, "at least five of every six steps name an item: " + asked);
    assertEquals(asked, items.size(), "no item asked for twice");
    assertEquals(Set.of("item=sku-7-000000".length()), lengths);
    assertTrue(items.contains("item=sku-7-000000") && items.contains("item=sku-7-004999"), "numbered from zero");
  }
}
