package dev.sessionless.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.testing.ReadmeBlocks;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Keeps the README's example compiling and true: the code between the markers is the README's. */
class ReadmeExampleTest {
  @TempDir Path dir;

  @Test
  void readmeExampleCountsIntoTheRegistry() throws Exception {
    Path keyFile = dir.resolve("session-keys.jwks");
    Files.writeString(keyFile, KeySet.of(TokenKey.generate("2026-11", Algorithm.HS256)).toJwksWithSecrets());
    MeterRegistry registry = new SimpleMeterRegistry();
    // readme-example:start
    SessionlessMetrics metrics = new SessionlessMetrics(registry);
    Keyring keys = Keyring.builder().jwksFile(keyFile)
        .listener(metrics).maxTokenLifetime(Duration.ofHours(12)).build();
    metrics.watch(keys);
    TokenCodec codec = TokenCodec.builder().keys(keys).issuer("https://shop.example").audience("shop")
        .timeToLive(Duration.ofMinutes(30)).listener(metrics).build();
    // readme-example:end
    try (keys) {
      codec.decode(codec.encode(Claims.builder().build()));
      assertEquals(1, registry.get("sessionless.tokens.verified").tags("result", "accepted", "alg", "HS256")
          .counter().count());
      assertEquals(1, registry.get("sessionless.keys.verifications").tags("kid", "2026-11").functionCounter().count());
    }
  }

  @Test
  void readmeShowsExactlyTheCodeThisTestRuns() throws Exception {
    List<String> tested = ReadmeBlocks.java(
        Path.of("src/test/java/dev/sessionless/micrometer/ReadmeExampleTest.java"), "readme-example");
    List<String> shown = ReadmeBlocks.markdown(Path.of("README.md"), "readme-example");
    assertFalse(shown.isEmpty(), "README.md has no readme-example block");
    assertEquals(tested, shown, "README.md drifted from ReadmeExampleTest");
  }
}
