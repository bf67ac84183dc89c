package dev.sessionless.load.internal;

import dev.sessionless.load.Workload;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntPredicate;

/**
 * Shop journeys — browse twice, add three items, check out — by users with their own cookie
 * jars. The load client is the balancer: {@link Routing#ROUND_ROBIN} sends every request to the
 * next node in rotation, {@link Routing#STICKY} keeps each user on one node until that node
 * leaves the rotation, then moves it to the next live node for good (as a balancer's affinity
 * cookie does).
 *
 * <p>Every reply tells the user what its session holds (how many items viewed, how many in the
 * cart), so a user notices a lost session at its next browse or add: the server holds less than
 * the user put there. A checkout that finds fewer items than the user added, or a journey whose
 * cart shrank on the way, is a lost cart. A request whose reply never came (a node died under it)
 * is sent again, and the server may have done the first one: more than expected after a retried
 * add, or an empty cart at a retried checkout, is not a loss.
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
  private final IntPredicate up;
  private final AtomicLong next = new AtomicLong();
  private final LongAdder journeys = new LongAdder();
  private final LongAdder cartsLost = new LongAdder();
  private final LongAdder sessionsLost = new LongAdder();
  private final LongAccumulator cookieBytes = new LongAccumulator(Math::max, 0);
  private final List<User> users = new ArrayList<>();

  /**
   * A workload over the nodes.
   *
   * @param nodes base URIs of the nodes
   * @param routing how to pick a node
   */
  public ShopWorkload(List<URI> nodes, Routing routing) {
    this(nodes, routing, i -> true);
  }

  /**
   * A workload over the nodes, routing only to those in rotation.
   *
   * @param nodes base URIs of the nodes
   * @param routing how to pick a node
   * @param up whether node {@code i} is in rotation (the balancer's health check)
   */
  public ShopWorkload(List<URI> nodes, Routing routing, IntPredicate up) {
    this.nodes = List.copyOf(nodes);
    this.routing = routing;
    this.up = up;
  }

  /** The next node in rotation at or after {@code from}; {@code from} itself when none is up. */
  private int live(long from) {
    int n = nodes.size();
    for (int k = 0; k < n; k++) {
      int i = (int) Math.floorMod(from + k, (long) n);
      if (up.test(i)) {
        return i;
      }
    }
    return (int) Math.floorMod(from, (long) n);
  }

  /** Times a user found its session emptied (counted once per loss, then it starts afresh). */
  public long sessionsLost() {
    return sessionsLost.sum();
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
    User u = new User(id);
    synchronized (users) {
      users.add(u);
    }
    return u;
  }

  /**
   * Every user this workload has made, in the order made: for {@link
   * dev.sessionless.load.Injector#revisit} after a step, so a loss no user had yet noticed is
   * counted too.
   */
  public List<VirtualUser> users() {
    synchronized (users) {
      return List.copyOf(users);
    }
  }

  private final class User implements VirtualUser {
    private final int id;
    private final Map<String, String> cookies = new LinkedHashMap<>();
    private int step;
    private int added;
    private int viewed;
    private boolean cartShrank;
    private long item;
    private int home;
    /** A request is out and its reply not yet accepted. */
    private boolean awaiting;
    /** This request repeats one that failed without a reply (the server may have done it). */
    private boolean retry;

    User(int id) {
      this.id = id;
      this.home = Math.floorMod(id, nodes.size());
    }

    @Override
    public HttpRequest next() {
      retry = awaiting;
      awaiting = true;
      int index;
      if (routing == Routing.STICKY) {
        if (!up.test(home)) {
          home = live(home + 1L); // its node left the rotation: the balancer moves it for good
        }
        index = home;
      } else {
        index = live(next.getAndIncrement());
      }
      URI node = nodes.get(index);
      String action = STEPS[step];
      // Six digits, always: every token of a run has the same size, and an item comes back only
      // after a million others. (Ids that came back after a thousand made a fast user's whole
      // session, and so its token, repeat byte for byte within one second, which no shopper does
      // and which promoted those tokens into each node's verification cache for nothing.)
      String query = action.equals("checkout") ? ""
          : "?item=sku-" + id + "-" + Long.toString(1_000_000 + item++ % 1_000_000).substring(1);
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
        // name=value, then the attributes; only the attributes are lower-cased to look for a
        // deletion (copying a 700-byte token for that cost the injector ~1.5 µs a reply)
        int semi = setCookie.indexOf(';');
        int end = semi < 0 ? setCookie.length() : semi;
        int eq = setCookie.indexOf('=');
        if (eq <= 0 || eq > end) {
          continue;
        }
        String name = setCookie.substring(0, eq).strip();
        String value = setCookie.substring(eq + 1, end).strip();
        String attributes = semi < 0 ? "" : setCookie.substring(semi).toLowerCase(java.util.Locale.ROOT);
        if (value.isEmpty() || attributes.contains("max-age=0") || attributes.contains("expires=thu, 01 jan 1970")) {
          cookies.remove(name);
        } else {
          cookies.put(name, value);
        }
      }
      awaiting = false;
      String action = STEPS[step];
      step = (step + 1) % STEPS.length;
      if (response.statusCode() != 200) {
        return false;
      }
      // "viewed=V items=N": what the session holds now (a checkout: what it found)
      String[] held = response.body().strip().split(" ");
      int viewedNow = Integer.parseInt(held[0].substring("viewed=".length()));
      int itemsNow = Integer.parseInt(held[1].substring("items=".length()));
      int expectViewed = action.equals("browse") ? Math.min(viewed + 1, 5) : viewed;
      int expectItems = action.equals("add") ? added + 1 : added;
      if (retry && action.equals("checkout") && itemsNow == 0 && viewedNow >= expectViewed) {
        // the first attempt checked the cart out and its reply was lost (a node died): the
        // order went through and the rest of the session is there, so nothing is lost
        journeys.increment();
        added = 0;
        cartShrank = false;
        viewed = viewedNow;
        return true;
      }
      if (viewedNow < expectViewed || itemsNow < expectItems) {
        sessionsLost.increment();
        cartShrank |= itemsNow < expectItems;
      }
      viewed = viewedNow;
      added = itemsNow;
      if (action.equals("checkout")) {
        if (cartShrank) {
          cartsLost.increment();
        } else {
          journeys.increment();
        }
        added = 0;
        cartShrank = false;
      }
      return true;
    }
  }
}
