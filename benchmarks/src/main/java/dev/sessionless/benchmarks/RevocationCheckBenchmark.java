package dev.sessionless.benchmarks;

import dev.sessionless.core.KeySet;
import dev.sessionless.core.RevocationStore;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenException;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.Random;
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
 * The revocation check beside a decode: an HS256 token with a subject, not revoked (the hit-free
 * look-up every request pays), against an in-memory store holding {@code revoked} other
 * sessions and one other subject's "log out everywhere". Target: the look-up at most 50 ns.
 *
 * <ul>
 *   <li>{@code lookup}: the check alone, {@code isRevoked(jti)} and {@code notBefore(sub)}, with
 *       the token's own strings (hash codes cached, as on a verification-cache hit).
 *   <li>{@code lookupFreshStrings}: the same with new copies of both strings per call, so the
 *       hashes are computed each time, as after a real verification; {@code freshStringsOnly}
 *       is the copying alone, to subtract.
 *   <li>{@code decode} / {@code decodeWithRevocation}: a full decode (cache off) without and
 *       with the check; the difference is its cost inside decode.
 *   <li>{@code cacheHit} / {@code cacheHitWithRevocation}: the same on a verification-cache
 *       hit, where the check is a larger share.
 * </ul>
 *
 * <pre>{@code
 * mvn -B -ntp -q -pl benchmarks -am package -DskipTests
 * java -jar benchmarks/target/benchmarks.jar RevocationCheckBenchmark -prof gc
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RevocationCheckBenchmark {
  /** Other sessions held as revoked in the store. */
  @Param({"0", "100000"})
  int revoked;

  RevocationStore store;
  TokenCodec plain;
  TokenCodec checked;
  TokenCodec plainCached;
  TokenCodec checkedCached;
  String token;
  SessionToken session;
  char[] idChars;
  char[] subjectChars;

  @Setup
  public void setup() {
    store = RevocationStore.inMemory(Clock.systemUTC());
    Instant until = Instant.now().plusSeconds(3600);
    Random random = new Random(7);
    byte[] b = new byte[16];
    for (int i = 0; i < revoked; i++) {
      random.nextBytes(b);
      store.revokeSession(Base64.getUrlEncoder().withoutPadding().encodeToString(b), until);
    }
    store.revokeSubject("someone-else", Instant.now(), until);
    KeySet keys = KeySet.of(Fixtures.hs256Key());
    plain = codec(keys, 0, false);
    checked = codec(keys, 0, true);
    plainCached = codec(keys, 10_000, false);
    checkedCached = codec(keys, 10_000, true);
    token = plain.encode(Fixtures.claims(Fixtures.stateForPayload(200)));
    session = checked.decode(token); // not revoked: the hit-free case
    idChars = session.id().toCharArray();
    subjectChars = session.subject().orElseThrow().toCharArray();
    checkedCached.decode(token);
    plainCached.decode(token);
    // Prove the check runs: the same token, once revoked, is refused by a codec on another store.
    RevocationStore other = RevocationStore.inMemory(Clock.systemUTC());
    other.revokeSession(session.id(), until);
    TokenCodec refusing = TokenCodec.builder().keys(keys).issuer(Fixtures.ISSUER).audience(Fixtures.AUDIENCE)
        .timeToLive(Fixtures.TTL).verificationCache(0).revocation(other).build();
    try {
      refusing.decode(token);
      throw new IllegalStateException("a revoked token was accepted: the check does not run");
    } catch (TokenException e) {
      if (e.reason() != TokenException.Reason.SESSION_REVOKED) {
        throw e;
      }
    }
  }

  private TokenCodec codec(KeySet keys, int cache, boolean withRevocation) {
    TokenCodec.Builder b = TokenCodec.builder().keys(keys).issuer(Fixtures.ISSUER).audience(Fixtures.AUDIENCE)
        .timeToLive(Fixtures.TTL).verificationCache(cache);
    return withRevocation ? b.revocation(store).build() : b.build();
  }

  @Benchmark
  public boolean lookup() {
    return store.isRevoked(session.id()) | store.notBefore(session.subject().orElseThrow()).isPresent();
  }

  @Benchmark
  public boolean lookupFreshStrings() {
    return store.isRevoked(new String(idChars)) | store.notBefore(new String(subjectChars)).isPresent();
  }

  /** Just the two copies {@code lookupFreshStrings} makes, to subtract from it. */
  @Benchmark
  public int freshStringsOnly() {
    return new String(idChars).length() + new String(subjectChars).length();
  }

  @Benchmark
  public SessionToken decode() {
    return plain.decode(token);
  }

  @Benchmark
  public SessionToken decodeWithRevocation() {
    return checked.decode(token);
  }

  @Benchmark
  public SessionToken cacheHit() {
    return plainCached.decode(token);
  }

  @Benchmark
  public SessionToken cacheHitWithRevocation() {
    return checkedCached.decode(token);
  }

}
