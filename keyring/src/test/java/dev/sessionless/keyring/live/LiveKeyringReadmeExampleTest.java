package dev.sessionless.keyring.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.keyring.KeyringStatus;
import dev.sessionless.testing.ReadmeBlocks;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Keeps the README's "Live keyring" example compiling and true: the code between the markers is the README's. */
class LiveKeyringReadmeExampleTest {
  @TempDir Path dir;

  @Test
  void readmeExampleRunsAgainstARealFileAndServer() throws Exception {
    Path keyFile = dir.resolve("session-keys.jwks");
    Files.writeString(keyFile, KeySet.of(TokenKey.generate("2026-11", Algorithm.HS256)).toJwksWithSecrets());
    SSLContext systemDefault = SSLContext.getDefault();
    // The JVM's default trust, for this test only: the local server's self-signed certificate.
    SSLContext.setDefault(TestTls.LOOPBACK.client);
    try (JwksEndpoint auth = JwksEndpoint.tls(KeySet.of(TokenKey.generate("auth-1", Algorithm.ES256)))) {
      URI authJwks = auth.uri();
      assertEquals("https", authJwks.getScheme());
      // readme-example:start
      Keyring keys = Keyring.builder()
          .jwksFile(keyFile)                     // our signing keys, reloaded when the file changes
          .jwksUrl(authJwks)                     // another service's public keys (https): verify only
          .build();                              // loads now, or KeyringException with a reason
      TokenCodec codec = TokenCodec.builder().keys(keys)
          .issuer("https://shop.example").audience("shop").timeToLive(Duration.ofMinutes(30))
          .build();
      String token = codec.encode(Claims.builder().subject("alice").build());
      KeyringStatus status = keys.status();     // per source: last success, failures, kids
      keys.close();                              // at shutdown: stops the refresh thread
      // readme-example:end
      assertEquals("2026-11", codec.decode(token).keyId(), "signed with the file's key");
      assertEquals(List.of("2026-11", "auth-1"), status.keyIds());
      assertEquals(Map.of(Algorithm.HS256, "2026-11"), status.signingKeyIds());
      assertTrue(keys.status().closed());
    } finally {
      SSLContext.setDefault(systemDefault);
    }
  }

  @Test
  void keyringReadmeShowsExactlyTheCodeThisTestRuns() throws IOException {
    List<String> tested = ReadmeBlocks.java(
        Path.of("src/test/java/dev/sessionless/keyring/live/LiveKeyringReadmeExampleTest.java"), "readme-example");
    List<String> shown = ReadmeBlocks.markdown(Path.of("README.md"), "readme-example");
    assertFalse(shown.isEmpty(), "README.md has no readme-example block");
    assertEquals(tested, shown, "README.md drifted from LiveKeyringReadmeExampleTest");
  }
}
