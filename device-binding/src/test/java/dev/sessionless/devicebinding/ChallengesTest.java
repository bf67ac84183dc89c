package dev.sessionless.devicebinding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.RevocationStore;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenKey;
import dev.sessionless.devicebinding.Challenge.Purpose;
import dev.sessionless.devicebinding.DeviceBindingException.Reason;
import dev.sessionless.testing.FakeClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

@Timeout(60)
class ChallengesTest {
  final FakeClock clock = new FakeClock(Instant.parse("2026-11-28T12:00:00.250Z"));
  final KeySet keys = KeySet.of(TokenKey.generate("dbsc-1", Algorithm.HS256));
  final Challenges challenges = Challenges.builder().keys(keys).issuer("https://shop.example").clock(clock).build();

  @Test
  void issuedChallengeVerifiesForItsPurposeAndSession() {
    String c = challenges.issue(Purpose.REFRESH, "s-1");
    assertTrue(c.matches("[A-Za-z0-9_.-]+"), "base64url and dots only: safe inside an sf-string");
    assertTrue(c.length() < 400, "a challenge is small: " + c.length());
    Challenge ok = challenges.verify(c, Purpose.REFRESH, "s-1", Instant.EPOCH);
    assertEquals(Purpose.REFRESH, ok.purpose());
    assertEquals("s-1", ok.subject());
    assertEquals(clock.instant(), ok.issuedAt());
    assertEquals(Instant.parse("2026-11-28T12:02:00Z"), ok.expiresAt());
  }

  @Test
  void withAUsedChallengeStoreASecondUseIsRefusedWhateverLastRefreshTheCallerHolds() {
    RevocationStore store = RevocationStore.inMemory(clock);
    Challenges first = Challenges.builder().keys(keys).issuer("https://shop.example").clock(clock)
        .usedChallenges(store).build();
    Challenges second = Challenges.builder().keys(keys).issuer("https://shop.example").clock(clock)
        .usedChallenges(store).build();               // another node, the same store
    String c = first.issue(Purpose.REFRESH, "s-1");
    first.verify(c, Purpose.REFRESH, "s-1", Instant.EPOCH);
    // The older last-refresh time (a long-lived token copied before this refresh) no longer helps.
    refused(Reason.REPLAYED, () -> second.verify(c, Purpose.REFRESH, "s-1", Instant.EPOCH));
    refused(Reason.REPLAYED, () -> first.verify(c, Purpose.REFRESH, "s-1", Instant.EPOCH));
    // Without the store the stateless rule alone cannot tell.
    challenges.verify(c, Purpose.REFRESH, "s-1", Instant.EPOCH);
    // The entry is kept only while the challenge could be accepted: its expiry plus the skew.
    clock.advance(Duration.ofMinutes(2).plusSeconds(6));
    refused(Reason.EXPIRED, () -> second.verify(c, Purpose.REFRESH, "s-1", Instant.EPOCH));
  }

  @Test
  void aUsedChallengeStoreThatCannotAnswerIsUnavailableAndOneThatCannotShareStillCounts() {
    RevocationStore down = new RevocationStore() {
      @Override
      public boolean isRevoked(String id) {
        throw new TokenException(TokenException.Reason.REVOCATION_UNAVAILABLE, "stale copy, failing closed");
      }

      @Override
      public java.util.Optional<Instant> notBefore(String subject) {
        return java.util.Optional.empty();
      }

      @Override
      public void revokeSession(String id, Instant until) {}

      @Override
      public void revokeSubject(String subject, Instant notBefore, Instant until) {}
    };
    Challenges closed = Challenges.builder().keys(keys).issuer("https://shop.example").clock(clock)
        .usedChallenges(down).build();
    refused(Reason.UNAVAILABLE, () -> closed.verify(closed.issue(Purpose.REFRESH, "s-1"), Purpose.REFRESH, "s-1",
        Instant.EPOCH));

    RevocationStore local = RevocationStore.inMemory(clock);
    RevocationStore unshared = new RevocationStore() {
      @Override
      public boolean isRevoked(String id) {
        return local.isRevoked(id);
      }

      @Override
      public java.util.Optional<Instant> notBefore(String subject) {
        return java.util.Optional.empty();
      }

      @Override
      public void revokeSession(String id, Instant until) {
        local.revokeSession(id, until); // applied here, as RedisRevocations does, then the write fails
        throw new TokenException(TokenException.Reason.REVOCATION_UNAVAILABLE, "not written");
      }

      @Override
      public void revokeSubject(String subject, Instant notBefore, Instant until) {}
    };
    Challenges open = Challenges.builder().keys(keys).issuer("https://shop.example").clock(clock)
        .usedChallenges(unshared).build();
    String c = open.issue(Purpose.REFRESH, "s-1");
    open.verify(c, Purpose.REFRESH, "s-1", Instant.EPOCH);
    refused(Reason.REPLAYED, () -> open.verify(c, Purpose.REFRESH, "s-1", Instant.EPOCH));
  }

  @Test
  void aChallengeForTheNextRefreshCarriesItsOwnWindowAndIsStillSingleUse() {
    String next = challenges.issue(Purpose.REFRESH, "s-1", Duration.ofMinutes(7));
    clock.advance(Duration.ofMinutes(6));
    Challenge used = challenges.verify(next, Purpose.REFRESH, "s-1", Instant.EPOCH);
    assertEquals(Instant.parse("2026-11-28T12:07:00Z"), used.expiresAt());
    refused(Reason.REPLAYED, () -> challenges.verify(next, Purpose.REFRESH, "s-1", used.issuedAt()));
    clock.advance(Duration.ofMinutes(2));
    refused(Reason.EXPIRED, () -> challenges.verify(next, Purpose.REFRESH, "s-1", Instant.EPOCH));
    org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> challenges.issue(Purpose.REFRESH, "s-1", Duration.ofDays(2)));
  }

  @Test
  void twoChallengesForOneSessionDiffer() {
    assertTrue(!challenges.issue(Purpose.REFRESH, "s-1").equals(challenges.issue(Purpose.REFRESH, "s-1")));
  }

  @Test
  void challengeForAnotherSessionIsRefused() {
    String c = challenges.issue(Purpose.REFRESH, "s-1");
    refused(Reason.WRONG_SESSION, () -> challenges.verify(c, Purpose.REFRESH, "s-2", Instant.EPOCH));
  }

  @Test
  void registrationChallengeIsRefusedForRefreshAndTheOtherWayRound() {
    String reg = challenges.issue(Purpose.REGISTRATION, "s-1");
    refused(Reason.WRONG_CHALLENGE, () -> challenges.verify(reg, Purpose.REFRESH, "s-1", Instant.EPOCH));
    String ref = challenges.issue(Purpose.REFRESH, "s-1");
    refused(Reason.WRONG_CHALLENGE, () -> challenges.verify(ref, Purpose.REGISTRATION, "s-1", Instant.EPOCH));
  }

  @Test
  void challengeAfterItsWindowIsExpired() {
    String c = challenges.issue(Purpose.REFRESH, "s-1");
    clock.advance(Duration.ofMinutes(2).plusSeconds(6));
    refused(Reason.EXPIRED, () -> challenges.verify(c, Purpose.REFRESH, "s-1", Instant.EPOCH));
  }

  @Test
  void challengeIssuedAtOrBeforeTheLastRefreshIsReplayedButALaterOneIsNot() {
    String used = challenges.issue(Purpose.REFRESH, "s-1");
    Challenge first = challenges.verify(used, Purpose.REFRESH, "s-1", Instant.EPOCH);
    // The next challenge goes out in the same millisecond as the refresh: still accepted.
    String next = challenges.issue(Purpose.REFRESH, "s-1");
    clock.advance(Duration.ofMillis(1));
    String later = challenges.issue(Purpose.REFRESH, "s-1");
    refused(Reason.REPLAYED, () -> challenges.verify(used, Purpose.REFRESH, "s-1", first.issuedAt()));
    refused(Reason.REPLAYED, () -> challenges.verify(next, Purpose.REFRESH, "s-1", first.issuedAt()));
    assertEquals(first.issuedAt().plusMillis(1),
        challenges.verify(later, Purpose.REFRESH, "s-1", first.issuedAt()).issuedAt());
  }

  @Test
  void forgedOrAlteredOrForeignChallengesAreRefused() {
    String c = challenges.issue(Purpose.REFRESH, "s-1");
    String altered = c.substring(0, c.length() - 2) + (c.endsWith("A") ? "B" : "A") + c.charAt(c.length() - 1);
    refused(Reason.WRONG_CHALLENGE, () -> challenges.verify(altered, Purpose.REFRESH, "s-1", Instant.EPOCH));
    Challenges otherApp = Challenges.builder().keys(KeySet.of(TokenKey.generate("dbsc-1", Algorithm.HS256)))
        .issuer("https://shop.example").clock(clock).build();
    String foreign = otherApp.issue(Purpose.REFRESH, "s-1");
    refused(Reason.WRONG_CHALLENGE, () -> challenges.verify(foreign, Purpose.REFRESH, "s-1", Instant.EPOCH));
    refused(Reason.WRONG_CHALLENGE, () -> challenges.verify("cv", Purpose.REFRESH, "s-1", Instant.EPOCH));
    refused(Reason.MALFORMED, () -> challenges.verify("", Purpose.REFRESH, "s-1", Instant.EPOCH));
  }

  @Test
  void aSessionTokenOfTheSameKeysIsNotAChallenge() {
    var sessionCodec = dev.sessionless.core.TokenCodec.builder().keys(keys).issuer("https://shop.example")
        .audience("dbsc-challenge").timeToLive(Duration.ofMinutes(5)).clock(clock).build();
    String sessionToken = sessionCodec.encode(dev.sessionless.core.Claims.builder().build());
    refused(Reason.WRONG_CHALLENGE, () -> challenges.verify(sessionToken, Purpose.REFRESH, "s-1", Instant.EPOCH));
  }

  @Test
  void noSigningKeyIsAnOutageNotARejection() {
    Challenges empty = Challenges.builder().keys(KeySet.empty()).issuer("https://shop.example").clock(clock).build();
    DeviceBindingException e = assertThrows(DeviceBindingException.class, () -> empty.issue(Purpose.REFRESH, "s"));
    assertEquals(Reason.UNAVAILABLE, e.reason());
    assertTrue(!e.reason().isRejection());
  }

  static void refused(Reason reason, Executable call) {
    assertEquals(reason, assertThrows(DeviceBindingException.class, call).reason());
  }
}
