package dev.sessionless.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** One codec per algorithm shared by many threads: per-thread MACs, ciphers and buffers never mix. */
class ConcurrencyTest {
  @Test
  void sharedCodecsEncodeAndDecodeCorrectlyFromManyThreads() throws Exception {
    List<TokenCodec> codecs = new ArrayList<>();
    for (Algorithm a : Algorithm.values()) {
      codecs.add(TokenCodec.builder().keys(KeySet.of(TokenKey.generate("k-" + a, a))).algorithm(a)
          .issuer("i").audience("a").timeToLive(Duration.ofMinutes(5)).verificationCache(64).build());
    }
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<Integer>> results = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        final int thread = t;
        results.add(pool.submit(() -> {
          int ok = 0;
          for (int i = 0; i < 300; i++) {
            TokenCodec codec = codecs.get((thread + i) % codecs.size());
            boolean slow = !codec.algorithm().isSymmetric();
            if (slow && i % 10 != 0) {
              continue; // keep the public-key share small: ~0.1 ms per verify
            }
            String subject = "t" + thread + "-" + i;
            String token = codec.encode(Claims.builder().subject(subject).put("i", i).build());
            SessionToken s = codec.decode(new String(token.toCharArray()));
            assertEquals(subject, s.subject().orElseThrow());
            assertEquals(i, s.get("i", Integer.class).orElseThrow());
            ok++;
          }
          return ok;
        }));
      }
      int total = 0;
      for (Future<Integer> f : results) {
        total += f.get(2, TimeUnit.MINUTES);
      }
      assertTrue(total > 1000, "ran " + total + " round trips");
    } finally {
      pool.shutdownNow();
    }
  }
}
