package dev.sessionless.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenKey;
import dev.sessionless.testing.ReadmeBlocks;
import dev.sessionless.testing.RedisServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Keeps the README example compiling and true: the code below is the README's, line for line. */
class ReadmeExampleTest {
  @Test
  void readmeExampleRevokesASessionThroughARealRedis() throws Exception {
    KeySet keys = KeySet.of(TokenKey.generate("2026-11", Algorithm.HS256));
    try (RedisServer redis = RedisServer.start()) {
      String redisUri = redis.uri();
      TokenCodec issuer = TokenCodec.builder().keys(keys).issuer("https://shop.example").audience("shop")
          .timeToLive(Duration.ofMinutes(30)).build();
      String token = issuer.encode(Claims.builder().subject("alice").build());
      // readme-example:start
      RedisRevocations revocations = RedisRevocations.builder()
          .uri(redisUri)                                  // redis://host:6379
          .pollInterval(Duration.ofSeconds(30))           // the lag bound if publish/subscribe is down
          .build();
      TokenCodec codec = TokenCodec.builder()
          .keys(keys).issuer("https://shop.example").audience("shop")
          .timeToLive(Duration.ofMinutes(30)).revocation(revocations)
          .build();
      SessionToken session = codec.decode(token);
      revocations.revokeSession(session.id(), session.expiresAt().plusSeconds(60)); // every node
      // readme-example:end
      try (revocations) {
        assertEquals(TokenException.Reason.SESSION_REVOKED,
            assertThrows(TokenException.class, () -> codec.decode(token)).reason());
      }
    }
  }

  @Test
  void readmeShowsExactlyTheCodeThisTestRuns() throws Exception {
    List<String> tested = ReadmeBlocks.java(Path.of("src/test/java/dev/sessionless/redis/ReadmeExampleTest.java"),
        "readme-example");
    List<String> shown = ReadmeBlocks.markdown(Path.of("README.md"), "readme-example");
    assertTrue(!shown.isEmpty(), "README.md has no readme-example block");
    assertEquals(tested, shown, "README.md drifted from ReadmeExampleTest");
  }
}
