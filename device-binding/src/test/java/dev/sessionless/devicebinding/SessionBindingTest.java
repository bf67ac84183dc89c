package dev.sessionless.devicebinding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import dev.sessionless.devicebinding.DeviceBindingException.Reason;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class SessionBindingTest {
  final TokenCodec codec = TokenCodec.builder().keys(KeySet.of(TokenKey.generate("k", Algorithm.HS256)))
      .issuer("https://shop.example").audience("dbsc-session").timeToLive(Duration.ofDays(1)).build();

  @Test
  void bindingRoundTripsThroughARealTokenWithCnfJktAndJwk() throws Exception {
    for (String alg : new String[] {"ES256", "RS256"}) {
      DeviceKey key = DeviceKey.of(new SimulatedBrowser(alg, java.time.Clock.systemUTC()).keys.getPublic());
      Instant last = Instant.parse("2026-11-28T12:00:00.123Z");
      String token = codec.encode(SessionBinding.of(key, last).writeTo(Claims.builder().sessionId("s-1")).build());
      var decoded = codec.decode(token);
      SessionBinding read = SessionBinding.read(decoded).orElseThrow();
      assertEquals(key, read.key());
      assertEquals(last, read.lastRefresh());
      assertTrue(decoded.claimJson("cnf").orElseThrow().contains("\"jkt\":\"" + key.thumbprint() + "\""));
    }
  }

  @Test
  void anUnboundTokenHasNoBinding() {
    assertTrue(SessionBinding.read(codec.decode(codec.encode(Claims.builder().build()))).isEmpty());
  }

  @Test
  void aBindingThisModuleDidNotWriteIsOurFaultNotTheClients() throws Exception {
    DeviceKey key = DeviceKey.of(DeviceKeyTest.ecPair().getPublic());
    DeviceKey other = DeviceKey.of(DeviceKeyTest.ecPair().getPublic());
    Map<String, Object> cnf = Map.of("jkt", other.thumbprint(),
        "jwk", SimulatedBrowser.JSON.readValue(key.toJwk(), Map.class));
    String mismatched = codec.encode(Claims.builder().claim("cnf", cnf).claim("dbsc_lr", 0L).build());
    DeviceBindingException e = assertThrows(DeviceBindingException.class,
        () -> SessionBinding.read(codec.decode(mismatched)));
    assertEquals(Reason.INTERNAL, e.reason());
    String noTime = codec.encode(Claims.builder().claim("cnf", Map.of("jkt", key.thumbprint())).build());
    assertEquals(Reason.INTERNAL, assertThrows(DeviceBindingException.class,
        () -> SessionBinding.read(codec.decode(noTime))).reason());
  }

  @Test
  void refreshingMovesTheLastRefreshToTheUsedChallenge() throws Exception {
    var clock = new dev.sessionless.testing.FakeClock(Instant.parse("2026-11-28T12:00:00Z"));
    Challenges challenges = Challenges.builder().keys(KeySet.of(TokenKey.generate("c", Algorithm.HS256)))
        .issuer("https://shop.example").clock(clock).build();
    SimulatedBrowser device = new SimulatedBrowser("ES256", clock);
    SessionBinding binding = SessionBinding.of(DeviceKey.of(device.keys.getPublic()), Instant.EPOCH);
    device.sessionId = "s-1";
    device.takeChallenge(DbscHeaders.challenge(challenges.issue(Challenge.Purpose.REFRESH, "s-1"), "s-1"));
    VerifiedProof proof = DeviceProof.verifier(challenges).clock(clock).build()
        .verifyRefresh(DbscHeaders.readProof(device.refreshProof(null)), "s-1", binding.key(), binding.lastRefresh(),
            null);
    assertEquals(clock.instant(), binding.refreshedWith(proof).lastRefresh());
  }
}
