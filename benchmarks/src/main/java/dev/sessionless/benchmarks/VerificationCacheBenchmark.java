package dev.sessionless.benchmarks;

import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Sessionless's verification cache on a hit: an HS256 codec with the default cache (10,000
 * entries) decoding a token it has already verified. A server reads the token out of a cookie
 * or header, so on every request it is a <em>new {@code String}</em> with the same content;
 * the cache must find it by content (hash of the last 16 characters, then {@code equals} over
 * the whole token), then re-check {@code exp} and the key's lifecycle. Compare with {@code
 * Hs256DecodeBenchmark.sessionless}, the same token decoded with the cache off.
 *
 * <ul>
 *   <li>{@code sameInstance}: the very {@code String} that was cached (best case; {@code
 *       equals} returns on identity).
 *   <li>{@code distinctInstances}: a pool of 64 distinct copies of the token, cycled, so every
 *       lookup compares content: the cookie case, without the copy's cost.
 *   <li>{@code freshCopy}: {@code new String(chars)} on every call and then decode: the cookie
 *       case including making the string, as a request parser would.
 *   <li>{@code freshCopyOnly}: just the {@code new String(chars)}, to subtract from {@code freshCopy}.
 *   <li>{@code newTokenEveryTime}: the other end, sessions that change on every request: 131,072
 *       distinct tokens cycled, each presented once per pass (13 times what the cache holds), so
 *       every decode misses and verifies; against {@code newTokenEveryTimeCacheOff}, the same
 *       decodes with the cache switched off, it shows what the cache costs when it never helps.
 * </ul>
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar VerificationCacheBenchmark -prof gc
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class VerificationCacheBenchmark {
  private static final int POOL = 64;

  /** The JSON payload size in bytes. */
  @Param({"200"})
  int payloadBytes;

  TokenCodec cached;
  String token;
  char[] tokenChars;
  String[] copies;

  @Setup
  public void setup() {
    cached = TokenCodec.builder()
        .keys(dev.sessionless.core.KeySet.of(Fixtures.hs256Key()))
        .issuer(Fixtures.ISSUER)
        .audience(Fixtures.AUDIENCE)
        .timeToLive(Fixtures.TTL)
        .build(); // the default cache: 10,000 entries
    token = cached.encode(Fixtures.claims(Fixtures.stateForPayload(payloadBytes)));
    Fixtures.checkSize("the payload", Fixtures.jwsPayload(token).length, payloadBytes);
    tokenChars = token.toCharArray();
    copies = new String[POOL];
    for (int i = 0; i < POOL; i++) {
      copies[i] = new String(tokenChars);
    }

    // Prove the hits are hits: a hit returns the cached SessionToken itself.
    SessionToken first = cached.decode(token);
    for (String copy : copies) {
      if (copy == token || cached.decode(copy) != first) {
        throw new IllegalStateException("a copy of the token missed the verification cache");
      }
    }
    if (cached.decode(new String(tokenChars)) != first) {
      throw new IllegalStateException("a fresh copy of the token missed the verification cache");
    }
  }

  /** Each thread walks the pool of copies on its own. */
  @State(Scope.Thread)
  public static class Cursor {
    int next;
  }

  @Benchmark
  public SessionToken sameInstance() {
    return cached.decode(token);
  }

  @Benchmark
  public SessionToken distinctInstances(Cursor c) {
    return cached.decode(copies[c.next++ & (POOL - 1)]);
  }

  @Benchmark
  public SessionToken freshCopy() {
    return cached.decode(new String(tokenChars));
  }

  @Benchmark
  public String freshCopyOnly() {
    return new String(tokenChars);
  }

  /** Distinct tokens, each presented once per pass, and a codec of each kind to decode them. */
  @State(Scope.Benchmark)
  public static class OnceEach {
    static final int TOKENS = 131_072;
    String[] tokens;
    TokenCodec cacheOn;
    TokenCodec cacheOff;

    /** Makes the tokens (same key and state size as the hit benchmarks). */
    @Setup
    public void setup() {
      dev.sessionless.core.KeySet keys = dev.sessionless.core.KeySet.of(Fixtures.hs256Key());
      cacheOn = TokenCodec.builder().keys(keys).issuer(Fixtures.ISSUER).audience(Fixtures.AUDIENCE)
          .timeToLive(Fixtures.TTL).build();
      cacheOff = TokenCodec.builder().keys(keys).issuer(Fixtures.ISSUER).audience(Fixtures.AUDIENCE)
          .timeToLive(Fixtures.TTL).verificationCache(0).build();
      tokens = new String[TOKENS];
      java.util.Map<String, Object> state = new java.util.LinkedHashMap<>(Fixtures.stateForPayload(200));
      for (int i = 0; i < TOKENS; i++) {
        // Each a different state, as every write re-issues the token.
        state.put("n", i);
        tokens[i] = cacheOn.encode(Fixtures.claims(state));
      }
      if (new java.util.HashSet<>(java.util.Arrays.asList(tokens)).size() != TOKENS) {
        throw new IllegalStateException("the tokens must all differ");
      }
    }
  }

  /** Each thread's place in the distinct tokens. */
  @State(Scope.Thread)
  public static class OnceCursor {
    int next;
  }

  @Benchmark
  public SessionToken newTokenEveryTime(OnceEach o, OnceCursor c) {
    return o.cacheOn.decode(o.tokens[c.next++ & (OnceEach.TOKENS - 1)]);
  }

  @Benchmark
  public SessionToken newTokenEveryTimeCacheOff(OnceEach o, OnceCursor c) {
    return o.cacheOff.decode(o.tokens[c.next++ & (OnceEach.TOKENS - 1)]);
  }
}
