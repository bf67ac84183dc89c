package dev.sessionless.benchmarks;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What a live {@link Keyring} adds to one decode: the snapshot read and the key look-up, against
 * the same keys as a static {@link KeySet}. The same HS256 token (200-byte payload, cache off) is
 * decoded through a codec whose key source is either the key set itself ({@code keySet}) or a
 * keyring polling a JWKS file every second on its own thread ({@code keyring}); the file holds
 * {@code keys} keys, one of which signed the token.
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar KeyringDecodeBenchmark -f 2 -wi 3 -w 1s -i 5 -r 1s -prof gc
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class KeyringDecodeBenchmark {
  /** Where the codec gets its keys. */
  @Param({"keySet", "keyring"})
  String source;

  /** How many keys the set holds. */
  @Param({"3"})
  int keys;

  Keyring keyring;
  TokenCodec codec;
  String token;
  Path dir;

  @Setup(Level.Trial)
  public void setup() throws Exception {
    KeySet set = KeySet.empty();
    for (int i = 0; i < keys; i++) {
      set = set.with(TokenKey.generate("k" + i, Algorithm.HS256));
    }
    KeySource keySource = set;
    if (source.equals("keyring")) {
      dir = Files.createTempDirectory("keyring-bench");
      Path file = dir.resolve("keys.jwks");
      Files.writeString(file, set.toJwksWithSecrets());
      keyring = Keyring.builder().jwksFile(file).filePollInterval(Duration.ofSeconds(1)).build();
      keySource = keyring;
    }
    codec = TokenCodec.builder().keys(keySource).issuer(Fixtures.ISSUER).audience(Fixtures.AUDIENCE)
        .timeToLive(Fixtures.TTL).verificationCache(0).build();
    token = codec.encode(Fixtures.claims(Fixtures.stateForPayload(200)));
    if (codec.decode(token).expiresAt() == null) {
      throw new IllegalStateException("the token did not decode");
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    if (keyring != null) {
      keyring.close();
      try (var files = Files.list(dir)) {
        for (Path p : files.toList()) {
          Files.delete(p);
        }
      }
      Files.delete(dir);
    }
  }

  @Benchmark
  public SessionToken decode() {
    return codec.decode(token);
  }
}
