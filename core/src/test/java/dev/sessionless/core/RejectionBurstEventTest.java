package dev.sessionless.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.testing.FakeClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;
import jdk.jfr.EventType;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JFR rejection-burst event: off by default, recorded once per burst second when enabled. */
class RejectionBurstEventTest {
  static final String EVENT = "dev.sessionless.RejectionBurst";
  static final Instant NOW = Instant.parse("2026-11-23T10:00:00Z");

  @Test
  void aSecondWithManyRejectionsIsRecordedAsOneBurstEvent(@TempDir Path dir) throws Exception {
    FakeClock clock = new FakeClock(NOW);
    TokenCodec codec = TokenCodec.builder().keys(KeySet.of(TokenKey.generate("k", Algorithm.HS256)))
        .issuer("i").audience("a").timeToLive(Duration.ofMinutes(5)).clock(clock).build();
    List<RecordedEvent> events;
    try (Recording r = new Recording()) {
      r.enable(EVENT);
      r.start();
      for (int i = 0; i < 150; i++) {
        assertThrows(TokenException.class, () -> codec.decode("forged.token.here"));
      }
      clock.advance(Duration.ofSeconds(1));
      for (int i = 0; i < 5; i++) { // a quiet second: no burst
        assertThrows(TokenException.class, () -> codec.decode("forged.token.here"));
      }
      clock.advance(Duration.ofSeconds(1));
      assertThrows(TokenException.class, () -> codec.decode("forged.token.here"));
      r.stop();
      Path file = dir.resolve("burst.jfr");
      r.dump(file);
      events = RecordingFile.readAllEvents(file).stream()
          .filter(e -> e.getEventType().getName().equals(EVENT)).collect(Collectors.toList());
      assertTrue(Files.size(file) > 0);
    }
    assertEquals(1, events.size(), "one event for the one burst second, none for the quiet one");
    assertEquals(150, events.get(0).getLong("rejections"));
    assertEquals(NOW.getEpochSecond(), events.get(0).getLong("epochSecond"));
  }

  @Test
  void burstEventIsDisabledByDefault() {
    EventType type = EventType.getEventType(dev.sessionless.core.internal.RejectionBursts.BurstEvent.class);
    assertEquals(EVENT, type.getName());
    String enabledByDefault = type.getSettingDescriptors().stream().filter(d -> d.getName().equals("enabled"))
        .findFirst().orElseThrow().getDefaultValue();
    assertEquals("false", enabledByDefault, "no recording records it unless asked");
  }
}
