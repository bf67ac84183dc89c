package dev.sessionless.benchmarks;

import dev.sessionless.core.RevocationStore;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Random;

/**
 * Retained heap of the in-memory revocation store holding one million revoked sessions (issue
 * 16's "memory per million revoked entries"): the heap in use after full GCs, read from {@link
 * MemoryMXBean}, before and after filling the store, with the 22-character base64url session ids
 * (as the filter makes them) measured apart. Not a JMH benchmark: one fill, three figures.
 *
 * <pre>
 * java -Xmx1g -cp benchmarks/target/benchmarks.jar dev.sessionless.benchmarks.RevocationMemory [entries]
 * </pre>
 */
public final class RevocationMemory {
  private RevocationMemory() {}

  static long usedAfterGc(MemoryMXBean memory) {
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      System.gc();
      used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
    }
    return used;
  }

  /**
   * Fills a store and prints the bytes per entry.
   *
   * @param args optionally the number of entries (default 1,000,000)
   */
  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    double[] bytes = measure(n);
    System.out.printf("%,d revoked sessions (JVM %s, max heap %d MB)%n", n, Runtime.version(),
        Runtime.getRuntime().maxMemory() >> 20);
    System.out.printf("  store structure: %.1f bytes per entry%n", bytes[0]);
    System.out.printf("  session id strings: %.1f bytes per id%n", bytes[1]);
    System.out.printf("  total: %.0f MB per million revoked sessions%n", (bytes[0] + bytes[1]) * 1_000_000 / 1e6);
  }

  /** Bytes per entry retained by the store's structure and by the id strings, over {@code n} entries. */
  static double[] measure(int n) {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    Instant now = Instant.parse("2026-11-23T10:00:00Z");
    long empty = usedAfterGc(memory);
    String[] ids = new String[n];
    Random random = new Random(1);
    byte[] b = new byte[16];
    Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
    for (int i = 0; i < n; i++) {
      random.nextBytes(b);
      ids[i] = base64.encodeToString(b);
    }
    long withIds = usedAfterGc(memory);
    RevocationStore store = RevocationStore.inMemory(Clock.fixed(now, ZoneOffset.UTC));
    Instant until = now.plusSeconds(1800);
    for (String id : ids) {
      store.revokeSession(id, until);
    }
    long withStore = usedAfterGc(memory);
    for (String id : ids) {
      if (!store.isRevoked(id)) {
        throw new AssertionError("the store lost an entry");
      }
    }
    double idBytes = (double) (withIds - empty - 16L - 4L * n) / n; // minus the array of references
    double storeBytes = (double) (withStore - withIds) / n;
    return new double[] {storeBytes, idBytes};
  }
}
