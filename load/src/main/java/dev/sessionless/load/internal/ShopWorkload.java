package dev.sessionless.load.internal;

import dev.sessionless.load.Workload;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * Shop journeys — browse twice, add three items, check out — by users with their own cookie
 * jars. The load client routes: {@link Routing#ROUND_ROBIN} sends every request to the next node,
 * {@link Routing#STICKY} sends each user to one node. A checkout that finds fewer items than
 * the user added counts as a lost cart.
 */
public final class ShopWorkload implements Workload {
  /** How requests are spread over the nodes. */
  public enum Routing {
    /** Each request to the next node, whoever sends it. */
    ROUND_ROBIN,
    /** Every request of a user to the same node. */
    STICKY
  }

  private static final String[] STEPS = {"browse", "browse", "add", "add", "add", "checkout"};
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final List<URI> nodes;
  private final Routing routing;
  private final AtomicLong next = new AtomicLong();
  private final LongAdder journeys = new LongAdder();
  private final LongAdder cartsLost = new LongAdder();
  private final LongAccumulator cookieBytes = new LongAccumulator(Math::max, 0);

  /**
   * A workload over the nodes.
   *
   * @param nodes base URIs of the nodes
   * @param routing how to pick a node
   */
  public ShopWorkload(List<URI> nodes, Routing routing) {
    this.nodes = List.copyOf(nodes);
    this.routing = routing;
  }

  /** Checkouts that found every item the user had added. */
  public long journeysCompleted() {
    return journeys.sum();
  }

  /** Checkouts that found fewer items than the user had added. */
  public long cartsLost() {
    return cartsLost.sum();
  }

  /** The largest Cookie header a user sent, in bytes. */
  public long maxCookieBytes() {
    return cookieBytes.get();
  }

  @Override
  public VirtualUser newUser(int id) {
    return new User(id);
  }

  private final class User implements VirtualUser {
    private final int id;
    private final Map<String, String> cookies = new LinkedHashMap<>();
    private int step;
    private int added;
    private long item;

    User(int id) {
      this.id = id;
    }

    @Override
    public HttpRequest next() {
      URI node = nodes.get(routing == Routing.STICKY
          ? Math.floorMod(id, nodes.size())
          : (int) Math.floorMod(next.getAndIncrement(), (long) nodes.size()));
      String action = STEPS[step];
      String query = action.equals("checkout") ? "" : "?item=sku-" + id + "-" + (item++ % 1000);
      HttpRequest.Builder b = HttpRequest.newBuilder(node.resolve("/shop/" + action + query)).timeout(TIMEOUT);
      if (!cookies.isEmpty()) {
        StringBuilder header = new StringBuilder();
        cookies.forEach((k, v) -> header.append(header.length() == 0 ? "" : "; ").append(k).append('=').append(v));
        cookieBytes.accumulate(header.length());
        b.header("Cookie", header.toString());
      }
      return b.build();
    }

    @Override
    public boolean accept(HttpResponse<String> response) {
      for (String setCookie : response.headers().allValues("set-cookie")) {
        String pair = setCookie.split(";", 2)[0];
        int eq = pair.indexOf('=');
        if (eq <= 0) {
          continue;
        }
        String name = pair.substring(0, eq).strip();
        String value = pair.substring(eq + 1).strip();
        String lower = setCookie.toLowerCase(java.util.Locale.ROOT);
        if (value.isEmpty() || lower.contains("max-age=0") || lower.contains("expires=thu, 01 jan 1970")) {
          cookies.remove(name);
        } else {
          cookies.put(name, value);
        }
      }
      String action = STEPS[step];
      step = (step + 1) % STEPS.length;
      if (response.statusCode() != 200) {
        return false;
      }
      if (action.equals("add")) {
        added++;
      } else if (action.equals("checkout")) {
        int found = Integer.parseInt(response.body().strip().substring("items=".length()));
        if (found == added) {
          journeys.increment();
        } else {
          cartsLost.increment();
        }
        added = 0;
      }
      return true;
    }
  }
}
