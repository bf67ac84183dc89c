package dev.sessionless.spring.boot.it;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** The key file the tests' instances share: one A256GCM key, the default algorithm's. */
public final class KeyFiles {
  private KeyFiles() {}

  /**
   * A codec that reads the sessions Boot writes with the key in {@code file} and its defaults
   * (issuer and audience {@code application}, encrypted).
   */
  public static TokenCodec sessionReader(Path file) throws IOException {
    return TokenCodec.builder().keys(KeySet.fromJwks(Files.readString(file)))
        .issuer("application").audience("application").timeToLive(Duration.ofMinutes(30))
        .algorithm(Algorithm.DIR_A256GCM).build();
  }

  /** {@code file}, holding a new A256GCM key unless it already exists. */
  public static Path a256gcm(Path file) throws IOException {
    if (!Files.exists(file)) {
      Files.writeString(file, KeySet.of(TokenKey.generate("k1", Algorithm.DIR_A256GCM)).toJwksWithSecrets());
    }
    return file;
  }
}
