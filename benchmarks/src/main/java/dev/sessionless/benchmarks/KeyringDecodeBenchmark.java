package dev.sessionless.benchmarks;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What a live {@code Keyring} adds to an HS256 decode, next to a fixed {@code KeySet}: the same
 * token, the same keys, the same codec settings ({@code verificationCache(0)}, so every call is a
 * full decode), in the same run.
 *
 * <ul>
 *   <li>{@code staticKeySet}: {@code TokenCodec.decode} over a {@code KeySet} given directly.
 *   <li>{@code keyring}: the same over a {@code Keyring} loaded from a JWKS file in a temporary
 *       directory; its background thread polls the file every 5 s during the run (nothing
 *       changes, so the snapshot stays the same object). The difference is the cost of {@code
 *       current()}: a volatile read.
 * </ul>
 *
 * <p>{@code keys} is the size of the key set: the token's key plus older ones.
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar KeyringDecode -f 1 -wi 3 -w 1s -i 5 -r 1s
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class KeyringDecodeBenchmark {
  /** How many keys the key set holds (try {@code -p keys=1,16,64}). */
  @Param({"1", "16"})
  int keys;

  Path dir;
  Keyring keyring;
  TokenCodec viaKeyring;
  TokenCodec viaKeySet;
  String token;

  @Setup
  public void setup() throws IOException {
    List<TokenKey> all = new ArrayList<>();
    all.add(Fixtures.hs256Key(Fixtures.secret(32, 256)));
    for (int i = 1; i < keys; i++) { // older keys: kids sort before the signing key's
      all.add(TokenKey.secret(String.format("2020-%02d", i), Algorithm.HS256, Fixtures.secret(32, i)));
    }
    KeySet set = KeySet.of(all);
    dir = Files.createTempDirectory("keyring-bench");
    Path file = dir.resolve("keys.jwks");
    Files.writeString(file, set.toJwksWithSecrets());
    keyring = Keyring.builder().jwksFile(file).build();
    viaKeySet = codec(set);
    viaKeyring = codec(keyring);
    token = viaKeySet.encode(Fixtures.claims(Fixtures.stateForPayload(200)));
    // Both must accept the very token they are timed on, signed by the same key.
    String a = Fixtures.mustAccept("static key set", this::staticKeySet).keyId();
    String b = Fixtures.mustAccept("keyring", this::keyring).keyId();
    if (!a.equals(Fixtures.KID) || !b.equals(Fixtures.KID)) {
      throw new IllegalStateException("the token was not signed by " + Fixtures.KID + ": " + a + ", " + b);
    }
  }

  private static TokenCodec codec(KeySource source) {
    return TokenCodec.builder().keys(source).issuer(Fixtures.ISSUER).audience(Fixtures.AUDIENCE)
        .timeToLive(Fixtures.TTL).verificationCache(0).build();
  }

  @TearDown
  public void tearDown() throws IOException {
    keyring.close();
    Files.deleteIfExists(dir.resolve("keys.jwks"));
    Files.deleteIfExists(dir);
  }

  @Benchmark
  public SessionToken staticKeySet() {
    return viaKeySet.decode(token);
  }

  @Benchmark
  public SessionToken keyring() {
    return viaKeyring.decode(token);
  }
}
