package dev.sessionless.keyring.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.SessionlessListener;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.keyring.TestHooks;
import dev.sessionless.testing.FakeClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a keyring tells its listener and JFR: source checks with their outcome, key-set changes. */
class KeyringListenerTest {
  static final Duration POLL = Duration.ofSeconds(5);
  static final Instant T = Instant.parse("2026-11-23T12:00:00Z");
  @TempDir Path dir;
  final FakeClock clock = new FakeClock(T);

  static final class RecordingListener implements SessionlessListener {
    final List<String> events = Collections.synchronizedList(new ArrayList<>());

    @Override
    public void keySetChanged(KeySet previous, KeySet current) {
      events.add("changed " + kids(previous) + " -> " + kids(current));
    }

    @Override
    public void keySourceChecked(String source, String outcome, Instant lastSuccess) {
      events.add("checked " + outcome + " " + lastSuccess);
    }

    static List<String> kids(KeySet s) {
      return s.keys().stream().map(TokenKey::kid).collect(Collectors.toList());
    }
  }

  @Test
  void sourceChecksAndKeySetChangesReachTheListener() throws Exception {
    Path file = dir.resolve("keys.jwks");
    Files.writeString(file, KeySet.of(TokenKey.generate("k1", Algorithm.HS256)).toJwksWithSecrets());
    RecordingListener l = new RecordingListener();
    FakeScheduler[] scheduler = new FakeScheduler[1];
    try (Keyring keys = TestHooks.scheduler(Keyring.builder().jwksFile(file).filePollInterval(POLL).clock(clock)
        .listener(l), () -> scheduler[0] = new FakeScheduler(clock)).build()) {
      assertEquals(List.of("checked ok " + T, "changed [] -> [k1]"), l.events);
      l.events.clear();

      Files.writeString(file, "{ not json");
      clock.advance(POLL);
      scheduler[0].runDue();
      assertEquals(List.of("checked malformed " + T), l.events, "a failed check reports its reason and the "
          + "last success, so staleness can be told; the keys stay");
      l.events.clear();

      Files.writeString(file, KeySet.of(TokenKey.generate("k1", Algorithm.HS256),
          TokenKey.generate("k2", Algorithm.HS256)).toJwksWithSecrets());
      clock.advance(POLL);
      scheduler[0].runDue();
      Instant now = T.plus(POLL).plus(POLL);
      assertEquals(List.of("checked ok " + now, "changed [k1] -> [k1, k2]"), l.events.subList(0, 2));
      assertTrue(keys.current().key("k2").isPresent());
    }
  }

  @Test
  void aThrowingListenerNeverStopsTheRefresh() throws Exception {
    Path file = dir.resolve("keys.jwks");
    Files.writeString(file, KeySet.of(TokenKey.generate("k1", Algorithm.HS256)).toJwksWithSecrets());
    SessionlessListener hostile = new SessionlessListener() {
      @Override
      public void keySourceChecked(String source, String outcome, Instant lastSuccess) {
        throw new IllegalStateException("registry closed");
      }

      @Override
      public void keySetChanged(KeySet previous, KeySet current) {
        throw new IllegalStateException("registry closed");
      }
    };
    FakeScheduler[] scheduler = new FakeScheduler[1];
    try (Keyring keys = TestHooks.scheduler(Keyring.builder().jwksFile(file).filePollInterval(POLL).clock(clock)
        .listener(hostile), () -> scheduler[0] = new FakeScheduler(clock)).build()) {
      Files.writeString(file, KeySet.of(TokenKey.generate("k2", Algorithm.HS256)).toJwksWithSecrets());
      clock.advance(POLL);
      scheduler[0].runDue();
      assertTrue(keys.current().key("k2").isPresent(), "the new keys are in force");
      assertEquals(0, keys.status().refreshErrors(), "a listener's failure is not a refresh failure");
      clock.advance(POLL);
      scheduler[0].runDue();
      assertEquals(3, keys.status().sources().get(0).checks(), "the chain of checks goes on");
    }
  }

  @Test
  void keyRefreshIsRecordedAsAJfrEventWhenEnabled() throws Exception {
    Path file = dir.resolve("keys.jwks");
    Files.writeString(file, KeySet.of(TokenKey.generate("k1", Algorithm.HS256)).toJwksWithSecrets());
    List<RecordedEvent> events;
    try (Recording r = new Recording()) {
      r.enable("dev.sessionless.KeyRefresh");
      r.start();
      Keyring.builder().jwksFile(file).clock(clock).build().close();
      r.stop();
      Path jfr = dir.resolve("refresh.jfr");
      r.dump(jfr);
      events = RecordingFile.readAllEvents(jfr).stream()
          .filter(e -> e.getEventType().getName().equals("dev.sessionless.KeyRefresh")).collect(Collectors.toList());
    }
    assertEquals(1, events.size());
    assertEquals("ok", events.get(0).getString("outcome"));
    assertEquals(1, events.get(0).getInt("keys"));
    assertTrue(events.get(0).getString("source").endsWith("keys.jwks"));
  }

  @Test
  void aJwksFetchFromARealHttpServerIsRecordedAsAJfrEventWhenEnabled() throws Exception {
    List<RecordedEvent> events;
    try (JwksEndpoint endpoint = new JwksEndpoint(KeySet.of(TokenKey.generate("e1", Algorithm.ES256).publicOnly()));
        Recording r = new Recording()) {
      r.enable("dev.sessionless.JwksFetch");
      r.start();
      Keyring.builder().jwksUrl(endpoint.uri()).httpAllowInsecurePlainHttp(true).build().close();
      r.stop();
      Path jfr = dir.resolve("fetch.jfr");
      r.dump(jfr);
      events = RecordingFile.readAllEvents(jfr).stream()
          .filter(e -> e.getEventType().getName().equals("dev.sessionless.JwksFetch")).collect(Collectors.toList());
      assertEquals(1, events.size());
      assertEquals("ok", events.get(0).getString("outcome"));
      assertEquals(1, events.get(0).getInt("keys"));
      assertTrue(events.get(0).getString("source").endsWith(endpoint.uri().toString()));
    }
  }
}
