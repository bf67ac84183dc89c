package dev.sessionless.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
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
 * What {@link Sizing} measures: Sessionless encoding, decoding, and decoding then reading the
 * first attribute of a user's own sample session, with the same codec settings as the matrix
 * ({@link MatrixBase}). Run through the JMH Runner API by {@link Sizing}; on its own it needs
 * {@code -p session=<file> -p alg=<HS256|ES256|EdDSA|dir|dir+zip>}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class SizingBenchmark {
  /** The sample session file (JSON object, or a dump: see {@link #readSession}). */
  @Param({""})
  public String session;

  /** The algorithm: HS256, ES256, EdDSA, dir or dir+zip. */
  @Param({"HS256"})
  public String alg;

  TokenCodec codec;
  Claims claims;
  String token;
  String firstName;

  /** Reads the session and makes the codec and token. */
  @Setup
  public void setup() {
    if (session.isEmpty()) {
      session = sampleOfStateSize(256).toString();
    }
    Map<String, Object> state = readSession(Path.of(session));
    codec = codec(alg);
    claims = claims(state);
    token = codec.encode(claims);
    firstName = state.keySet().iterator().next();
    Fixtures.mustAccept("sessionless", this::decodeRead);
  }

  @Benchmark
  public String encode() {
    return codec.encode(claims);
  }

  @Benchmark
  public SessionToken decode() {
    return codec.decode(token);
  }

  @Benchmark
  public Object decodeRead() {
    return codec.decode(token).get(firstName, Object.class).orElseThrow();
  }

  /** The session's claims: a fixed session id (as a follow-up token carries) and the attributes. */
  static Claims claims(Map<String, Object> state) {
    Claims.Builder b = Claims.builder().sessionId(Fixtures.SESSION_ID);
    state.forEach(b::put);
    return b.build();
  }

  /** A codec as the matrix makes one (no verification cache), for an algorithm name. */
  static TokenCodec codec(String alg) {
    String a = alg.toLowerCase(Locale.ROOT);
    TokenKey key = switch (a) {
      case "hs256" -> Fixtures.hs256Key();
      case "es256" -> TokenKey.generate(Fixtures.KID, Algorithm.ES256);
      case "eddsa" -> TokenKey.generate(Fixtures.KID, Algorithm.EDDSA);
      case "dir", "dir+zip" -> Fixtures.dirKey();
      default -> throw new IllegalArgumentException(
          "unknown algorithm " + alg + ": use HS256, ES256, EdDSA, dir or dir+zip");
    };
    return TokenCodec.builder()
        .keys(KeySet.of(key))
        .algorithm(key.algorithm())
        .issuer(Fixtures.ISSUER)
        .audience(Fixtures.AUDIENCE)
        .timeToLive(Fixtures.TTL)
        .verificationCache(0)
        .compress(a.equals("dir+zip"))
        .build();
  }

  /**
   * Reads a sample session: either a JSON object of attributes, or an {@code HttpSession} dump:
   * one attribute per line, {@code name=value}, where the value is JSON if it parses as JSON and
   * a plain string otherwise; blank lines and lines starting with {@code #} are skipped.
   */
  static Map<String, Object> readSession(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the session file " + file, e);
    }
    Map<String, Object> state = new LinkedHashMap<>();
    if (text.stripLeading().startsWith("{")) {
      JsonNode root;
      try {
        root = Fixtures.MAPPER.readTree(text);
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        throw new IllegalArgumentException(file + " is not valid JSON: " + e.getOriginalMessage(), e);
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        state.put(e.getKey(), Fixtures.MAPPER.convertValue(e.getValue(), Object.class));
      }
    } else {
      for (String line : text.split("\\R")) {
        String l = line.strip();
        if (l.isEmpty() || l.startsWith("#")) {
          continue;
        }
        int eq = l.indexOf('=');
        if (eq <= 0) {
          throw new IllegalArgumentException(file + ": a dump line is name=value, not: " + l);
        }
        String value = l.substring(eq + 1).strip();
        Object parsed;
        try {
          parsed = Fixtures.MAPPER.readValue(value, Object.class);
        } catch (IOException notJson) {
          parsed = value;
        }
        state.put(l.substring(0, eq).strip(), parsed);
      }
    }
    if (state.isEmpty()) {
      throw new IllegalArgumentException(file + " has no attributes: a session needs at least one");
    }
    return state;
  }

  /** Writes the matrix's synthetic state of {@code bytes} to a temporary JSON file. */
  static Path sampleOfStateSize(int bytes) {
    try {
      Path p = Files.createTempFile("sessionless-sample", ".json");
      Files.write(p, Fixtures.MAPPER.writeValueAsBytes(Fixtures.stateOfJsonSize(bytes)));
      p.toFile().deleteOnExit();
      return p;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
