package dev.sessionless.keyring.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.keyring.SourceStatus;
import dev.sessionless.keyring.KeyringException;
import dev.sessionless.keyring.TestHooks;
import dev.sessionless.testing.FakeClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One unexpected exception or error inside a refresh (a logging back end that throws, a bug in a
 * library) must not end that source's chain of checks silently: the next check is still
 * scheduled, and the failure is counted in the status. Driven by a fake clock and scheduler.
 */
class RefreshChainTest {
  static final Duration POLL = Duration.ofSeconds(5);
  @TempDir Path dir;
  final FakeClock clock = new FakeClock(Instant.parse("2026-11-01T00:00:00Z"));

  @AfterEach
  void loggerWorksAgain() {
    RecordingLoggerFinder.failWhen(text -> null);
  }

  static KeySet keys(String kid) {
    return KeySet.of(TokenKey.generate(kid, Algorithm.HS256));
  }

  static List<String> kids(Keyring k) {
    return k.status().keyIds();
  }

  Keyring fileKeyring(Path file, FakeScheduler[] scheduler) {
    return TestHooks.scheduler(Keyring.builder().jwksFile(file).filePollInterval(POLL).clock(clock),
        () -> scheduler[0] = new FakeScheduler(clock)).build();
  }

  void poll(FakeScheduler scheduler) {
    clock.advance(POLL);
    scheduler.runDue();
  }

  @Test
  void anExceptionFromTheLoggerDuringARefreshDoesNotEndTheRefreshChain() throws IOException {
    assertTrue(RecordingLoggerFinder.installed(), "the test logger finder is in force");
    Path file = dir.resolve("chain.jwks");
    Files.writeString(file, keys("chain-a").toJwksWithSecrets());
    FakeScheduler[] scheduler = new FakeScheduler[1];
    try (Keyring keyring = fileKeyring(file, scheduler)) {
      RecordingLoggerFinder.failWhen(text -> text.contains("keys changed")
          ? new IllegalStateException("appender broke") : null);
      Files.writeString(file, keys("chain-b").toJwksWithSecrets());
      poll(scheduler[0]);
      assertEquals(List.of("chain-b"), kids(keyring));
      assertTrue(keyring.status().refreshErrors() >= 1, "the failure is counted: " + keyring.status());

      RecordingLoggerFinder.failWhen(text -> null);
      Files.writeString(file, keys("chain-c").toJwksWithSecrets());
      poll(scheduler[0]);
      assertEquals(List.of("chain-c"), kids(keyring), "the file is still polled after the exception");
    }
  }

  @Test
  void anErrorThrownWhileReportingAFailedCheckDoesNotEndTheRefreshChain() throws IOException {
    Path file = dir.resolve("error.jwks");
    Files.writeString(file, keys("error-a").toJwksWithSecrets());
    FakeScheduler[] scheduler = new FakeScheduler[1];
    try (Keyring keyring = fileKeyring(file, scheduler)) {
      RecordingLoggerFinder.failWhen(text -> text.contains("error.jwks: check failed")
          ? new AssertionError("a handler's own bug") : null);
      Files.writeString(file, "{ half a file");
      poll(scheduler[0]);
      SourceStatus source = keyring.status().sources().get(0);
      assertEquals(1, source.failures(), "the failed check itself is counted");
      assertTrue(keyring.status().refreshErrors() >= 1, "and so is the logger's error: " + keyring.status());
      assertEquals(List.of("error-a"), kids(keyring), "the last good keys stay");

      RecordingLoggerFinder.failWhen(text -> null);
      Files.writeString(file, keys("error-b").toJwksWithSecrets());
      poll(scheduler[0]);
      assertEquals(List.of("error-b"), kids(keyring), "the file is still polled after the error");
      assertEquals(0, keyring.status().sources().get(0).consecutiveFailures());
    }
  }

  @Test
  void anUnexpectedFailureWhileLoadingIsInternalNotMalformed() {
    KeyringException e = assertThrows(KeyringException.class, () -> Keyring.builder().environment("KEYS")
        .environmentReader(name -> {
          throw new IllegalStateException("a bug, not bad content");
        }).build());
    assertEquals(KeyringException.Reason.INTERNAL, e.reason(), e.getMessage());
    assertFalse(e.getMessage().contains("bad content"), "the unexpected message is not repeated: " + e.getMessage());
  }
}
