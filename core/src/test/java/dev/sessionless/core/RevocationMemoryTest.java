package dev.sessionless.core;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.testing.FakeClock;
import java.time.Instant;
import java.util.Base64;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Measures what a million revoked sessions cost in the in-memory store, and prints it. */
class RevocationMemoryTest {
  static long usedAfterGc() {
    Runtime rt = Runtime.getRuntime();
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 4; i++) {
      System.gc();
      used = Math.min(used, rt.totalMemory() - rt.freeMemory());
    }
    return used;
  }

  @Test
  void aMillionRevokedSessionsCostUnderFourHundredMegabytes() {
    Instant now = Instant.parse("2026-11-23T10:00:00Z");
    int n = 250_000; // a quarter of a million keeps the test quick; the figure is per million
    // The ids exist before measuring: a real store's ids arrive in requests anyway. They are
    // the filter's 22-character base64url ids.
    String[] ids = new String[n];
    Random random = new Random(1);
    byte[] b = new byte[16];
    for (int i = 0; i < n; i++) {
      random.nextBytes(b);
      ids[i] = Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }
    long before = usedAfterGc();
    RevocationStore store = RevocationStore.inMemory(new FakeClock(now));
    Instant until = now.plusSeconds(1800);
    for (String id : ids) {
      store.revokeSession(id, until);
    }
    long after = usedAfterGc();
    long perEntryStructure = (after - before) / n;
    // With the id strings themselves (24 + 40 bytes each on a 64-bit JVM with compressed oops).
    System.out.printf("revocation memory: %d bytes per revoked session in the map, ~%d with its id string;"
        + " %.0f MB per million revoked sessions (measured over %d)%n", perEntryStructure, perEntryStructure + 64,
        (perEntryStructure + 64) * 1e6 / 1e6, n);
    assertTrue(store.isRevoked(ids[n - 1]));
    assertTrue(perEntryStructure > 0 && perEntryStructure < 400,
        "a map entry should cost well under 400 bytes, measured " + perEntryStructure);
  }
}
