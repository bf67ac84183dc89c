package dev.sessionless.core.leak;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.Callable;

/**
 * Rejects 150 tokens within one second and one more in the next, so a rejection-burst JFR event
 * is committed (when a recording enables it): loads the event class in whatever loader loads this.
 */
public class BurstDriver implements Callable<String> {
  @Override
  public String call() {
    Instant[] now = {Instant.parse("2026-11-23T10:00:00Z")};
    Clock clock = new Clock() {
      @Override
      public ZoneOffset getZone() {
        return ZoneOffset.UTC;
      }

      @Override
      public Clock withZone(java.time.ZoneId zone) {
        return this;
      }

      @Override
      public Instant instant() {
        return now[0];
      }
    };
    TokenCodec codec = TokenCodec.builder().keys(KeySet.of(TokenKey.generate("k", Algorithm.HS256)))
        .issuer("i").audience("a").timeToLive(Duration.ofMinutes(5)).clock(clock).build();
    int rejected = 0;
    for (int i = 0; i < 151; i++) {
      if (i == 150) {
        now[0] = now[0].plusSeconds(1);
      }
      try {
        codec.decode("forged.token.here");
      } catch (TokenException e) {
        rejected++;
      }
    }
    return String.valueOf(rejected);
  }
}
