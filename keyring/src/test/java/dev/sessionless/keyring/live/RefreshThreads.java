package dev.sessionless.keyring.live;

import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/** Finds the refresh thread a keyring starts: the {@code sessionless-keyring-N} thread that was not there before. */
final class RefreshThreads {
  private RefreshThreads() {}

  static Set<Thread> all() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith("sessionless-keyring-"))
        .collect(Collectors.toSet());
  }

  /** Runs {@code start}, then waits for the one refresh thread it started and returns it. */
  static <T> Thread startedBy(Supplier<T> start, T[] result) {
    Set<Thread> before = all();
    result[0] = start.get();
    Thread[] found = new Thread[1];
    Await.until(() -> {
      Set<Thread> now = all();
      now.removeAll(before);
      if (now.size() == 1) {
        found[0] = now.iterator().next();
        return true;
      }
      return false;
    }, () -> "one new refresh thread");
    return found[0];
  }
}
