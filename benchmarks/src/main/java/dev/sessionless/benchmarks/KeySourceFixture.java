package dev.sessionless.benchmarks;

import dev.sessionless.core.KeySet;
import dev.sessionless.core.KeySource;
import dev.sessionless.keyring.Keyring;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The key source of the benchmarks that compare a live {@link Keyring} with a plain {@link
 * KeySet} (their {@code source} parameter): the key set itself ({@code keySet}), or a keyring
 * polling a JWKS file of the same keys every second on its own thread ({@code keyring}), in a
 * temporary directory that {@link #close()} deletes.
 */
final class KeySourceFixture implements AutoCloseable {
  final KeySource source;
  private final Keyring keyring;
  private final Path dir;

  private KeySourceFixture(KeySource source, Keyring keyring, Path dir) {
    this.source = source;
    this.keyring = keyring;
    this.dir = dir;
  }

  /** {@code keys} as the source {@code kind} names: {@code keySet} or {@code keyring}. */
  static KeySourceFixture of(String kind, KeySet keys) throws IOException {
    if (kind.equals("keySet")) {
      return new KeySourceFixture(keys, null, null);
    }
    if (!kind.equals("keyring")) {
      throw new IllegalArgumentException("source is keySet or keyring, not " + kind);
    }
    Path dir = Files.createTempDirectory("sessionless-bench-keys");
    Path file = dir.resolve("keys.jwks");
    Files.writeString(file, keys.toJwksWithSecrets());
    Keyring keyring = Keyring.builder().jwksFile(file).filePollInterval(Duration.ofSeconds(1)).build();
    return new KeySourceFixture(keyring, keyring, dir);
  }

  /** Stops the keyring and deletes its directory; nothing for a key set. */
  @Override
  public void close() throws IOException {
    if (keyring == null) {
      return;
    }
    keyring.close();
    try (var files = Files.list(dir)) {
      for (Path p : files.toList()) {
        Files.delete(p);
      }
    }
    Files.delete(dir);
  }
}
