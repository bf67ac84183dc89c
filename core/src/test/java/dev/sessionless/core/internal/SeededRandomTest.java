package dev.sessionless.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The buffered DRBG hands out each block's bytes once, across block boundaries and threads. */
class SeededRandomTest {

  @Test
  void drawsAcrossBlockBoundariesNeverRepeatAWindow() {
    // Draws of awkward sizes, so that many of them straddle the end of a block; any 8-byte window
    // seen twice would mean bytes were handed out twice (2^-64 by chance).
    Set<Long> windows = new HashSet<>();
    int[] sizes = {12, 16, 7, SeededRandom.BLOCK - 5, 3, SeededRandom.BLOCK + 9, 1, 33};
    for (int round = 0; round < 200; round++) {
      for (int size : sizes) {
        byte[] b = new byte[size];
        SeededRandom.nextBytes(b);
        for (int i = 0; i + 8 <= size; i += 8) {
          long w = 0;
          for (int k = 0; k < 8; k++) {
            w = w << 8 | (b[i + k] & 0xFF);
          }
          assertTrue(windows.add(w), "an 8-byte window came out twice at round " + round + ", size " + size);
        }
      }
    }
  }

  @Test
  void aDrawLongerThanABlockIsFilledThroughout() {
    byte[] b = new byte[3 * SeededRandom.BLOCK + 17];
    SeededRandom.nextBytes(b);
    // Every 64-byte stretch has non-zero bytes: nothing was left as the zeroed block.
    for (int i = 0; i + 64 <= b.length; i += 64) {
      assertTrue(!Arrays.equals(new byte[64], Arrays.copyOfRange(b, i, i + 64)),
          "bytes " + i + ".." + (i + 64) + " are all zero");
    }
  }

  @Test
  void idsDrawnOnManyThreadsAreAllDistinct() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<List<String>>> parts = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        parts.add(pool.submit(() -> {
          List<String> ids = new ArrayList<>();
          for (int i = 0; i < 5_000; i++) {
            ids.add(SeededRandom.newId());
          }
          return ids;
        }));
      }
      Set<String> all = new HashSet<>();
      for (Future<List<String>> f : parts) {
        for (String id : f.get(30, java.util.concurrent.TimeUnit.SECONDS)) {
          assertEquals(22, id.length());
          assertTrue(all.add(id), "a session id came out twice: " + id);
        }
      }
      assertEquals(20_000, all.size());
    } finally {
      pool.shutdownNow();
    }
  }
}
