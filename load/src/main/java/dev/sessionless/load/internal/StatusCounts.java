package dev.sessionless.load.internal;

import dev.sessionless.load.Workload;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link Workload} that passes every request and reply through to another and notes the time
 * and status of each reply, so a run can count what the shop's users got inside a fault's window
 * ({@link #count}): how many were served, answered {@code 503}, or answered anything else.
 */
final class StatusCounts implements Workload {
  /** One reply: seconds from the run's start, and its status. */
  record Reply(double at, int status, int port) {}

  private final Workload inner;
  private final long start;
  private final ConcurrentLinkedQueue<Reply> replies = new ConcurrentLinkedQueue<>();
  private final AtomicLong total = new AtomicLong();

  /**
   * @param inner the workload whose replies are counted
   * @param start {@link System#nanoTime()} at the run's start
   */
  StatusCounts(Workload inner, long start) {
    this.inner = inner;
    this.start = start;
  }

  @Override
  public VirtualUser newUser(int id) {
    VirtualUser user = inner.newUser(id);
    return new VirtualUser() {
      @Override
      public HttpRequest next() {
        return user.next();
      }

      @Override
      public boolean accept(HttpResponse<String> response) {
        total.incrementAndGet();
        replies.add(new Reply((System.nanoTime() - start) / 1e9, response.statusCode(), response.uri().getPort()));
        return user.accept(response);
      }
    };
  }

  /** Counts of replies in {@code [from, to)} seconds: {@code {served (200), 503, other}}. */
  long[] count(double from, double to) {
    long[] c = new long[3];
    for (Reply r : replies) {
      if (r.at() >= from && r.at() < to) {
        c[r.status() == 200 ? 0 : r.status() == 503 ? 1 : 2]++;
      }
    }
    return c;
  }

  /**
   * The statuses other than 200 and 503 in {@code [from, to)} seconds, as {@code status×count},
   * leaving out replies from {@code port} in {@code [skipFrom, skipTo)} (a node being stopped).
   */
  java.util.Map<Integer, Long> others(double from, double to, int port, double skipFrom, double skipTo) {
    java.util.Map<Integer, Long> m = new java.util.TreeMap<>();
    for (Reply r : replies) {
      boolean skipped = r.port() == port && r.at() >= skipFrom && r.at() < skipTo;
      if (r.at() >= from && r.at() < to && r.status() != 200 && r.status() != 503 && !skipped) {
        m.merge(r.status(), 1L, Long::sum);
      }
    }
    return m;
  }

  /** Every reply counted. */
  long total() {
    return total.get();
  }
}
