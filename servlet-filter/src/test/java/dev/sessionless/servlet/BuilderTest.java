package dev.sessionless.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The builder refuses incomplete or contradictory configurations at build(). */
class BuilderTest {
  private final KeySet keys = KeySet.of(TokenKey.generate("k", Algorithm.DIR_A256GCM));

  private SessionlessFilterBuilder valid() {
    return SessionlessFilter.builder().keys(keys).issuer("i").audience("a");
  }

  @Test
  void validConfigurationBuilds() {
    valid().maxInactiveInterval(Duration.ofMinutes(5)).renewalFraction(0.25).maxCookieChunks(16).build();
  }

  @Test
  void aFilterThatCompressesSignedTokensMustAcceptThem() {
    KeySet hs = KeySet.of(TokenKey.generate("h", Algorithm.HS256));
    java.util.function.Supplier<SessionlessFilterBuilder> signed = () -> SessionlessFilter.builder().keys(hs)
        .algorithm(Algorithm.HS256).issuer("i").audience("a");
    signed.get().compress(true).build();
    signed.get().acceptCompressedSignedTokens(true).build();
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> signed.get().compress(true).acceptCompressedSignedTokens(false).build());
    assertTrue(e.getMessage().contains("acceptCompressedSignedTokens(false)"), e.getMessage());
    assertThrows(IllegalStateException.class,
        () -> valid().acceptCompressedSignedTokens(true).acceptCompressedSignedTokens(false));
    SessionlessFilter.builder().keys(KeySet.of(TokenKey.generate("e", Algorithm.DIR_A256GCM)))
        .algorithm(Algorithm.DIR_A256GCM).compress(true).issuer("i").audience("a").build();
  }

  @Test
  void withoutAnAlgorithmTokensAreEncryptedAndKeysThatOnlySignAreRefusedNamingTheSetting() {
    valid().build(); // an A256GCM key: the default needs nothing else
    KeySet hs = KeySet.of(TokenKey.generate("h", Algorithm.HS256));
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> SessionlessFilter.builder().keys(hs).issuer("i").audience("a").build());
    assertTrue(e.getMessage().contains("algorithm(Algorithm.HS256)") && e.getMessage().contains("A256GCM"),
        e.getMessage());
    SessionlessFilter.builder().keys(hs).algorithm(Algorithm.HS256).issuer("i").audience("a").build();
    // No keys yet (a live source still loading): the first request says so, not build().
    SessionlessFilter.builder().keys(KeySet.empty()).issuer("i").audience("a").build();
  }

  @Test
  void choosingASigningAlgorithmSaysItsTokensAreReadable() {
    assertTrue(dev.sessionless.servlet.it.RecordingLoggerFinder.installed());
    int mark = dev.sessionless.servlet.it.RecordingLoggerFinder.mark();
    valid().build();
    assertTrue(dev.sessionless.servlet.it.RecordingLoggerFinder.since(mark, x -> x.text.contains("not encrypted"))
        .isEmpty());
    SessionlessFilter.builder().keys(KeySet.of(TokenKey.generate("h", Algorithm.HS256))).algorithm(Algorithm.HS256)
        .issuer("i").audience("a").build();
    assertEquals(1, dev.sessionless.servlet.it.RecordingLoggerFinder.since(mark,
        x -> x.level == System.Logger.Level.INFO && x.text.contains("signed, not encrypted")).size());
  }

  @Test
  void missingKeysIssuerOrAudienceIsRefused() {
    assertThrows(IllegalStateException.class, () -> SessionlessFilter.builder().issuer("i").audience("a").build());
    assertThrows(IllegalStateException.class, () -> SessionlessFilter.builder().keys(keys).audience("a").build());
    assertThrows(IllegalStateException.class, () -> SessionlessFilter.builder().keys(keys).issuer("i").build());
  }

  @Test
  void optionSetTwiceIsRefused() {
    assertThrows(IllegalStateException.class, () -> valid().cookieName("a").cookieName("b"));
  }

  @Test
  void outOfRangeValuesAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> valid().maxCookieChunks(17).build());
    assertThrows(IllegalArgumentException.class, () -> valid().maxCookieChunks(0).build());
    assertThrows(IllegalArgumentException.class, () -> valid().renewalFraction(0).build());
    assertThrows(IllegalArgumentException.class, () -> valid().renewalFraction(1.5).build());
    assertThrows(IllegalArgumentException.class, () -> valid().maxInactiveInterval(Duration.ZERO).build());
    assertThrows(IllegalArgumentException.class, () -> valid().cookieSameSite("Loose").build());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> valid().cookieName("a b").build());
    assertTrue(e.getMessage().contains("cookieName"), e.getMessage());
  }

  /**
   * A session's token lives at most its absolute lifetime; beyond the codec's 400-day limit a
   * write (after {@code setMaxInactiveInterval} with a large value) would ask the codec for a
   * lifetime it refuses, mid-request. So the filter refuses such a lifetime when it is built.
   */
  @Test
  void lifetimesBeyondTheCodecsLimitAreRefusedAtBuildNotMidRequest() {
    Duration tooLong = TokenCodec.MAX_TIME_TO_LIVE.plusDays(1);
    IllegalArgumentException absolute = assertThrows(IllegalArgumentException.class,
        () -> valid().absoluteLifetime(tooLong).build());
    assertTrue(absolute.getMessage().contains("absoluteLifetime"), absolute.getMessage());
    IllegalArgumentException inactive = assertThrows(IllegalArgumentException.class,
        () -> valid().maxInactiveInterval(tooLong).build());
    assertTrue(inactive.getMessage().contains("maxInactiveInterval"), inactive.getMessage());
    valid().absoluteLifetime(TokenCodec.MAX_TIME_TO_LIVE).maxInactiveInterval(TokenCodec.MAX_TIME_TO_LIVE).build();
  }

  @Test
  void cookieOptionsWithTheHeaderCarrierAreRefused() {
    assertThrows(IllegalStateException.class, () -> valid().header("X-Session").cookieName("S").build());
  }
}
