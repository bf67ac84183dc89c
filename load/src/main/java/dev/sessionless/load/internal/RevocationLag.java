package dev.sessionless.load.internal;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntPredicate;
import java.util.function.Predicate;

/**
 * The logout driver of the {@code revocation-lag} profile. At a steady rate a new user logs in on
 * one node and logs out on the next ({@code invalidate()}, which revokes the session in the
 * store); the cookie captured before the logout is then replayed on every node, at once and then
 * every {@link #FAST} until the node refuses it ({@code 401}: the filter rejected the token and
 * started an empty session), every {@link #SLOW} after the first {@link #FAST_FOR}, for at most
 * {@code cap}. Per token and node it records the time from the logout's reply to the send of the
 * first refused replay (the lag: the node had the revocation by then), how many replays the node
 * still served (leaked), how many it answered {@code 503} (an outage: not served, not refused) and
 * replays that got no reply (unreachable) and any other status (errors, e.g. a {@code 500}).
 *
 * <p>Everything is asynchronous on one {@link HttpClient}; a replay is sent after the previous
 * one's reply, so each token has at most one request in flight per node.
 */
final class RevocationLag implements AutoCloseable {
  /** The replay interval while the revocation is fresh. */
  static final Duration FAST = Duration.ofMillis(4);
  /** How long after the logout replays stay at {@link #FAST}. */
  static final Duration FAST_FOR = Duration.ofSeconds(3);
  /** The replay interval after that (an outage's length, not a lag, is being waited out). */
  static final Duration SLOW = Duration.ofMillis(200);
  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  /** One node's view of one revoked token. Written by one replay chain at a time. */
  static final class PerNode {
    /** Nanoseconds from the logout's reply to the first refused replay's send; -1 while none. */
    volatile long lagNanos = -1;
    final AtomicLong leaked = new AtomicLong();
    final AtomicLong unavailable = new AtomicLong();
    final AtomicLong errors = new AtomicLong();
    /** Replays that got no reply (the node is down, or the connection broke). */
    final AtomicLong unreachable = new AtomicLong();
    /** Seconds from the run's start of the last replay the node served; -1 if none. */
    volatile double lastLeakAt = -1;
  }

  /** One logout and what each node did with its token afterwards. */
  static final class Revoked {
    final int user;
    final int loginNode;
    final int logoutNode;
    /** The logout's status: 200 (written to Redis) or 503 (applied on its node only). */
    volatile int logoutStatus;
    /** Seconds from the run's start to the logout's reply. */
    volatile double revokedAt;
    final PerNode[] nodes;
    /** The {@code Cookie} header captured before the logout. */
    volatile String cookie;

    Revoked(int user, int loginNode, int logoutNode, int nodeCount) {
      this.user = user;
      this.loginNode = loginNode;
      this.logoutNode = logoutNode;
      this.nodes = new PerNode[nodeCount];
      for (int i = 0; i < nodeCount; i++) {
        nodes[i] = new PerNode();
      }
    }

    /** Whether every node has refused it. */
    boolean refusedEverywhere() {
      for (PerNode n : nodes) {
        if (n.lagNanos < 0) {
          return false;
        }
      }
      return true;
    }
  }

  private final List<URI> nodes;
  private final IntPredicate up;
  private final double rate;
  private final long capNanos;
  private final long start;
  private final HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
  private final ScheduledExecutorService timer = Executors.newScheduledThreadPool(1, r -> {
    Thread t = new Thread(r, "revocation-lag");
    t.setDaemon(true);
    return t;
  });
  private final List<Revoked> revoked = new ArrayList<>();
  private final AtomicInteger users = new AtomicInteger();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicLong loginsFailed = new AtomicLong();
  private ScheduledFuture<?> driver;

  /**
   * @param nodes the nodes' base URIs
   * @param up whether node {@code i} is in the balancer's rotation: logins and logouts go to nodes
   *     in rotation, replays to every node
   * @param logoutsPerSecond the logout rate
   * @param cap how long a token is replayed on a node at most
   * @param start {@link System#nanoTime()} at the run's start, for {@link Revoked#revokedAt}
   */
  RevocationLag(List<URI> nodes, IntPredicate up, double logoutsPerSecond, Duration cap, long start) {
    this.nodes = List.copyOf(nodes);
    this.up = up;
    this.rate = logoutsPerSecond;
    this.capNanos = cap.toNanos();
    this.start = start;
  }

  /** Starts logging users out at the rate. */
  void start() {
    long every = (long) (1e9 / rate);
    driver = timer.scheduleAtFixedRate(this::logOutOne, 0, every, TimeUnit.NANOSECONDS);
  }

  /** Stops logging users out; replays go on until each token is refused everywhere or capped. */
  void stopLogouts() {
    if (driver != null) {
      driver.cancel(false);
    }
  }

  /**
   * Waits until no replay is in flight or scheduled, at most {@code max}.
   *
   * @return whether every replay ended
   */
  boolean awaitReplays(Duration max) throws InterruptedException {
    long until = System.nanoTime() + max.toNanos();
    while (inFlight.get() > 0 && System.nanoTime() < until) {
      Thread.sleep(20); // waiting for the network, not for a clock: there is nothing to count
    }
    return inFlight.get() == 0;
  }

  /** The logouts so far, in order. */
  List<Revoked> revoked() {
    synchronized (revoked) {
      return List.copyOf(revoked);
    }
  }

  /** Logins that failed (no cookie came back, e.g. a {@code 503} while failing closed). */
  long loginsFailed() {
    return loginsFailed.get();
  }

  /**
   * Replays the cookie of every token revoked so far that {@code which} picks, once, on node
   * {@code index}: per token, the reply's status ({@code -1}: no reply).
   */
  List<Integer> replayOnce(int index, Predicate<Revoked> which) {
    List<CompletableFuture<Integer>> replies = new ArrayList<>();
    for (Revoked r : revoked()) {
      if (which.test(r)) {
        replies.add(client.sendAsync(me(index, r.cookie), HttpResponse.BodyHandlers.discarding())
            .handle((res, e) -> e == null ? res.statusCode() : -1));
      }
    }
    return replies.stream().map(CompletableFuture::join).toList();
  }

  /** {@link #replayOnce} of every token revoked so far. */
  List<Integer> replayAllOnce(int index) {
    return replayOnce(index, r -> true);
  }

  private int live(int from) {
    for (int k = 0; k < nodes.size(); k++) {
      int i = Math.floorMod(from + k, nodes.size());
      if (up.test(i)) {
        return i;
      }
    }
    return Math.floorMod(from, nodes.size());
  }

  private void logOutOne() {
    int user = users.getAndIncrement();
    int loginNode = live(user);
    int logoutNode = live(loginNode + 1);
    inFlight.incrementAndGet();
    HttpRequest login = HttpRequest.newBuilder(nodes.get(loginNode).resolve("/account/login?user=lag-" + user))
        .timeout(TIMEOUT).build();
    client.sendAsync(login, HttpResponse.BodyHandlers.discarding()).whenComplete((res, e) -> {
      String cookie = e == null && res.statusCode() == 200 ? cookies(res) : null;
      if (cookie == null) {
        loginsFailed.incrementAndGet();
        inFlight.decrementAndGet();
        return;
      }
      Revoked r = new Revoked(user, loginNode, logoutNode, nodes.size());
      r.cookie = cookie;
      HttpRequest logout = HttpRequest.newBuilder(nodes.get(logoutNode).resolve("/account/logout"))
          .header("Cookie", cookie).timeout(TIMEOUT).build();
      client.sendAsync(logout, HttpResponse.BodyHandlers.discarding()).whenComplete((out, e2) -> {
        long at = System.nanoTime();
        if (e2 != null || (out.statusCode() != 200 && out.statusCode() != 503)) {
          loginsFailed.incrementAndGet();
          inFlight.decrementAndGet();
          return;
        }
        r.logoutStatus = out.statusCode();
        r.revokedAt = (at - start) / 1e9;
        synchronized (revoked) {
          revoked.add(r);
        }
        for (int i = 0; i < nodes.size(); i++) {
          inFlight.incrementAndGet();
          replay(r, i, at);
        }
        inFlight.decrementAndGet();
      });
    });
  }

  private void replay(Revoked r, int node, long revokedAtNanos) {
    long sent = System.nanoTime();
    client.sendAsync(me(node, r.cookie), HttpResponse.BodyHandlers.discarding()).whenComplete((res, e) -> {
      PerNode p = r.nodes[node];
      int status = e == null ? res.statusCode() : -1;
      if (status == 401) {
        p.lagNanos = sent - revokedAtNanos;
        inFlight.decrementAndGet();
        return;
      }
      if (status == 200) {
        p.leaked.incrementAndGet();
        p.lastLeakAt = (sent - start) / 1e9;
      } else if (status == 503) {
        p.unavailable.incrementAndGet();
      } else if (status < 0) {
        p.unreachable.incrementAndGet();
      } else {
        p.errors.incrementAndGet();
      }
      long age = System.nanoTime() - revokedAtNanos;
      if (age >= capNanos || timer.isShutdown()) {
        inFlight.decrementAndGet();
        return;
      }
      long delay = (age < FAST_FOR.toNanos() ? FAST : SLOW).toNanos();
      try {
        timer.schedule(() -> replay(r, node, revokedAtNanos), delay, TimeUnit.NANOSECONDS);
      } catch (java.util.concurrent.RejectedExecutionException closed) {
        inFlight.decrementAndGet();
      }
    });
  }

  private HttpRequest me(int node, String cookie) {
    return HttpRequest.newBuilder(nodes.get(node).resolve("/account/me")).header("Cookie", cookie).timeout(TIMEOUT)
        .build();
  }

  /** The reply's cookies as a {@code Cookie} header, or null when it set none. */
  private static String cookies(HttpResponse<?> res) {
    StringBuilder header = new StringBuilder();
    for (String setCookie : res.headers().allValues("set-cookie")) {
      int semi = setCookie.indexOf(';');
      String pair = (semi < 0 ? setCookie : setCookie.substring(0, semi)).strip();
      if (pair.indexOf('=') > 0 && pair.indexOf('=') < pair.length() - 1) {
        header.append(header.length() == 0 ? "" : "; ").append(pair);
      }
    }
    return header.length() == 0 ? null : header.toString();
  }

  /** Stops the driver and every replay. */
  @Override
  public void close() {
    stopLogouts();
    timer.shutdownNow();
  }
}
