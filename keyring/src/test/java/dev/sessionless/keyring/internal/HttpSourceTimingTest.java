package dev.sessionless.keyring.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.http.HttpHeaders;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The HTTP source's timing rules as plain functions: back-off and freshness. */
class HttpSourceTimingTest {
  static HttpHeaders headers(Map<String, List<String>> map) {
    return HttpHeaders.of(map, (a, b) -> true);
  }

  @Test
  void backoffDoublesFromTheFirstDelayUpToTheMaximum() {
    Duration first = Duration.ofSeconds(1);
    Duration max = Duration.ofMinutes(5);
    long[] expected = {1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 128_000, 256_000, 300_000, 300_000};
    for (int n = 1; n <= expected.length; n++) {
      assertEquals(expected[n - 1], HttpSource.backoff(first, max, n, 1.0).toMillis(), "failure " + n);
      assertEquals(expected[n - 1] / 2, HttpSource.backoff(first, max, n, 0.5).toMillis(), "failure " + n + ", least jitter");
    }
    assertEquals(300_000, HttpSource.backoff(first, max, 10_000, 1.0).toMillis(), "no overflow however long the outage");
  }

  @Test
  void freshnessIsMaxAgeLessAgeAndZeroForNoCacheOrNoStore() {
    assertEquals(Optional.of(Duration.ofSeconds(300)),
        HttpSource.freshness(headers(Map.of("Cache-Control", List.of("public, max-age=300")))));
    assertEquals(Optional.of(Duration.ofSeconds(200)),
        HttpSource.freshness(headers(Map.of("Cache-Control", List.of("max-age=300"), "Age", List.of("100")))));
    assertEquals(Optional.of(Duration.ZERO),
        HttpSource.freshness(headers(Map.of("Cache-Control", List.of("max-age=300"), "Age", List.of("900")))));
    assertEquals(Optional.of(Duration.ZERO), HttpSource.freshness(headers(Map.of("Cache-Control", List.of("no-store")))));
    assertEquals(Optional.of(Duration.ZERO),
        HttpSource.freshness(headers(Map.of("Cache-Control", List.of("max-age=60", "no-cache")))));
    assertEquals(Optional.empty(), HttpSource.freshness(headers(Map.of("Cache-Control", List.of("max-age=soon")))));
    assertEquals(Optional.empty(), HttpSource.freshness(headers(Map.of())));
  }
}
