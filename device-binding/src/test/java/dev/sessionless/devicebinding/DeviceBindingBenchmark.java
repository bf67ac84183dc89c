package dev.sessionless.devicebinding;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import dev.sessionless.devicebinding.Challenge.Purpose;
import dev.sessionless.devicebinding.servlet.DeviceBindingFilter;
import dev.sessionless.devicebinding.internal.JwsSignatures;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What DBSC adds, with the filter's own token settings ({@link BindingTokens}): per request of a
 * bound session, the bound cookie's check ({@code boundCookieCheck}) beside the decode of the
 * session token every request of an unbound session pays ({@code sessionToken}: {@code dir} +
 * A256GCM, about 256 bytes of state, the filter's default); per refresh, the proof's check
 * ({@code refreshProof}: challenge token and ES256 or RS256 signature) and the token work around
 * it ({@code refreshTokens}: read the long-lived token and its binding, write both cookies anew).
 * Run by hand:
 *
 * <pre>
 * mvn -B -ntp -q -pl device-binding -am test-compile dependency:build-classpath \
 *     -Dmdep.outputFile=/tmp/cp.txt -Dmdep.includeScope=test -Dmaven.javadoc.skip=true
 * nice -n 19 java -cp device-binding/target/test-classes:device-binding/target/classes:$(cat /tmp/cp.txt) \
 *     org.openjdk.jmh.Main DeviceBindingBenchmark
 * </pre>
 *
 * <p>On a shared, loaded machine JMH's wall-clock figures mostly measure the wait for a core;
 * {@link #main} runs the same operations and reports this thread's CPU time per operation
 * instead (same class path, {@code dev.sessionless.devicebinding.DeviceBindingBenchmark}
 * as the main class).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class DeviceBindingBenchmark {
  /** The device key's algorithm. */
  @Param({"ES256", "RS256"})
  public String alg;

  /**
   * Which ES256 verification runs: {@code core} (core's P-256 engine, the default) or {@code jdk}
   * (the JDK's SunEC, {@code -Ddev.sessionless.fastpath.dbsc-es256=off}); RS256 is the JDK's
   * either way. {@code -p alg=ES256 -p es256=core,jdk DeviceBindingBenchmark.refreshProof}
   * compares the two in one run.
   */
  @Param({"core", "jdk"})
  public String es256;

  private BindingTokens tokens;
  private TokenCodec sessions;
  private String sessionToken;
  private String boundCookie;
  private String longLivedToken;
  private DeviceProof proofs;
  private DeviceKey key;
  private String proof;
  private static final String ID = "Jx3dAq9f2mT0bYkE1uVhZw";

  /** Keys, tokens and one refresh proof, made once. */
  @Setup
  public void setUp() {
    JwsSignatures.useEngine(!"jdk".equals(es256));
    KeySet keys = KeySet.of(TokenKey.generate("k1", Algorithm.HS256), TokenKey.generate("k2", Algorithm.DIR_A256GCM));
    Clock clock = Clock.systemUTC();
    DeviceBindingBuilder<?> b = DeviceBindingFilter.builder().keys(() -> keys).issuer("https://shop.example");
    tokens = new BindingTokens(b);
    sessions = TokenCodec.builder().keys(keys).algorithm(Algorithm.DIR_A256GCM).issuer("https://shop.example")
        .audience("shop").timeToLive(java.time.Duration.ofMinutes(30)).build();
    List<String> cart = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      cart.add("sku-" + (1000 + i) + ":qty=" + (i + 1));
    }
    sessionToken = sessions.encode(Claims.builder().put("cart", cart).build());
    boundCookie = tokens.bound.encode(Claims.builder().sessionId(ID).build());
    SimulatedBrowser browser = new SimulatedBrowser(alg, clock);
    // The longest windows: on a loaded machine the slower ES256 path must not outlive its proof.
    Challenges challenges = Challenges.builder().keys(keys).issuer("https://shop.example")
        .window(java.time.Duration.ofMinutes(10)).build();
    proofs = DeviceProof.verifier(challenges).build();
    String offer = DbscHeaders.registration().path("/r").challenge(challenges.issue(Purpose.REGISTRATION, "ctx"))
        .build();
    key = proofs.verifyRegistration(DbscHeaders.readProof(browser.register(offer, null)), "ctx", null, null).key();
    longLivedToken = tokens.longLived.encode(SessionBinding.of(key, Instant.EPOCH)
        .writeTo(Claims.builder().sessionId(ID)).build());
    browser.sessionId = ID;
    browser.takeChallenge(DbscHeaders.challenge(challenges.issue(Purpose.REFRESH, ID, java.time.Duration.ofDays(1)), ID));
    proof = DbscHeaders.readProof(browser.refreshProof(null));
    System.out.println("[dbsc-size] " + alg + " bound cookie " + boundCookie.length() + ", long-lived token "
        + longLivedToken.length() + ", session token " + sessionToken.length() + " characters");
  }

  /** CPU time per operation of each benchmark, for each algorithm, printed as {@code [dbsc-cpu]}. */
  public static void main(String[] args) {
    java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
    for (String a : new String[] {"ES256/core", "ES256/jdk", "RS256/core"}) {
      DeviceBindingBenchmark b = new DeviceBindingBenchmark();
      b.alg = a.substring(0, 5);
      b.es256 = a.substring(6);
      b.setUp();
      List<java.util.function.Supplier<Object>> ops = List.of(b::sessionToken, b::boundCookieCheck, b::refreshProof,
          b::refreshTokens);
      String[] names = {"sessionToken", "boundCookieCheck", "refreshProof", "refreshTokens"};
      for (int i = 0; i < ops.size(); i++) {
        int n = i == 2 ? 2_000 : 50_000;
        for (int w = 0; w < n; w++) {
          ops.get(i).get();
        }
        long t0 = mx.getCurrentThreadCpuTime();
        for (int w = 0; w < n; w++) {
          ops.get(i).get();
        }
        double us = (mx.getCurrentThreadCpuTime() - t0) / 1000.0 / n;
        System.out.printf("[dbsc-cpu] %s %-16s %8.2f us/op (thread CPU time, %d ops)%n", a, names[i], us, n);
      }
    }
  }

  /** The per-request cost every session pays: the session token's decode. */
  @Benchmark
  public SessionToken sessionToken() {
    return sessions.decode(sessionToken);
  }

  /** The per-request cost a bound session adds: the bound cookie's check. */
  @Benchmark
  public boolean boundCookieCheck() {
    return tokens.boundTo(boundCookie, ID);
  }

  /** Per refresh: the proof's check (challenge token, signature). */
  @Benchmark
  public VerifiedProof refreshProof() {
    return proofs.verifyRefresh(proof, ID, key, Instant.EPOCH, null);
  }

  /** Per refresh: reading the long-lived token and its binding, writing both tokens anew. */
  @Benchmark
  public String refreshTokens() {
    SessionBinding binding = SessionBinding.read(tokens.longLived.decode(longLivedToken)).orElseThrow();
    return tokens.longLived.encode(binding.writeTo(Claims.builder().sessionId(ID)).build())
        + tokens.bound.encode(Claims.builder().sessionId(ID).build());
  }
}
