package dev.sessionless.benchmarks;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The memory harness runs and measures something plausible (its figure comes from a 1,000,000 run). */
class RevocationMemoryTest {
  @Test
  void harnessMeasuresTheStoreAndTheIdsApart() {
    double[] bytes = RevocationMemory.measure(100_000);
    assertTrue(bytes[0] > 16 && bytes[0] < 400, "store bytes per entry: " + bytes[0]);
    assertTrue(bytes[1] > 32 && bytes[1] < 200, "id bytes per entry: " + bytes[1]);
  }
}
