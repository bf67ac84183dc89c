package dev.sessionless.core;

import static dev.sessionless.core.HostileTokens.AUD;
import static dev.sessionless.core.HostileTokens.ISS;
import static dev.sessionless.core.HostileTokens.LEEWAY;
import static dev.sessionless.core.HostileTokens.NOW;
import static dev.sessionless.core.HostileTokens.NOW_S;
import static dev.sessionless.core.HostileTokens.TTL;
import static dev.sessionless.core.HostileTokens.b64;
import static dev.sessionless.core.HostileTokens.concat;
import static dev.sessionless.core.HostileTokens.deflate;
import static dev.sessionless.core.HostileTokens.header;
import static dev.sessionless.core.HostileTokens.segments;
import static dev.sessionless.core.HostileTokens.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;
import dev.sessionless.core.TokenException.Reason;
import dev.sessionless.core.internal.ClaimRules;
import dev.sessionless.core.internal.ClaimsReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Seeded mutation fuzz of {@link TokenCodec#decode(String)}: valid tokens of every algorithm,
 * mutated blindly (bits, characters, segments, re-encodings) or edited as JSON and re-signed
 * (re-encrypted) with the right key. Properties checked on every mutant:
 *
 * <ol>
 *   <li>nothing but {@link TokenException} escapes decode (nor the accepted token's state access);
 *   <li>a blind (not re-signed) mutant is accepted only when it is, character for character, one
 *       of the valid tokens, and then decodes to exactly that token's content: canonical
 *       encodings are unique, so no other text may verify;
 *   <li>a rejection's cause is absent or an {@code JacksonException} (Jackson's parse error), never an
 *       ArrayIndexOutOfBounds, NullPointer or the like hidden by decode's catch-all;
 *   <li>re-signed JSON edits that break strictness are rejected as {@code MALFORMED} (those
 *       inside the lazily read state: at the latest when the state is read); re-signed edits
 *       that keep the JSON valid get exactly the outcome an independent model of the claim
 *       checks predicts, and if accepted, exactly the edited content.
 * </ol>
 *
 * <p>The seed is fixed so builds are reproducible; run another with {@code
 * -Dsessionless.fuzz.seed=<number>} or {@code =random}, and more or fewer mutants with {@code
 * -Dsessionless.fuzz.mutants=<n>}. Every failure message names the seed and the mutant.
 */
class MutationFuzzTest {
  static final long SEED = seed();
  static final int MUTANTS = Integer.getInteger("sessionless.fuzz.mutants", 120_000);
  static final int CACHED_MUTANTS = Math.max(1, MUTANTS / 6);
  static final int MAX_FAILURES_SHOWN = 12;
  static final ObjectMapper MAPPER = new ObjectMapper();

  static long seed() {
    String s = System.getProperty("sessionless.fuzz.seed", "20261123");
    return s.equals("random") ? new Random().nextLong() : Long.parseLong(s);
  }

  final HostileTokens keys = new HostileTokens(SEED);
  final List<Base> bases = new ArrayList<>();
  final Map<String, Base> byText = new HashMap<>();
  final List<Base> weighted = new ArrayList<>();
  final Stats stats = new Stats();

  /** One valid token and what it decodes to. */
  record Base(String label, TokenKey key, boolean zip, String token, List<String[]> header,
      List<String[]> payload, Facts facts) {}

  /** The content a decoded token must show. */
  record Facts(String id, String subject, long exp, long iat, Long nbf, String kid, JsonNode state) {
    static Facts of(SessionToken t) {
      return new Facts(t.id(), t.subject().orElse(null), t.expiresAt().getEpochSecond(),
          t.issuedAt().getEpochSecond(), t.notBefore().map(i -> i.getEpochSecond()).orElse(null),
          t.keyId(), tree(t.stateJson()));
    }
  }

  enum Kind { BLIND, RESIGNED_STRICT, RESIGNED_STATE, RESIGNED_MODELLED }

  /** A mutant: its text, how it was made, and (for re-signed ones) the outcome it must have. */
  record Mutant(String token, Kind kind, String what, Reason expected, Facts facts) {}

  // ---- the tests ------------------------------------------------------------------------------

  @Test
  @Timeout(value = 15, unit = TimeUnit.MINUTES) // 120,000 mutants: 150 s measured on a busy 2-core machine
  void mutantsOfEveryAlgorithmNeverEscapeNeverForgeAndBreakNothingSilently() {
    makeBases();
    TokenCodec codec = keys.codec(false);
    List<String> failures = new ArrayList<>();
    long start = System.nanoTime();
    for (int i = 0; i < MUTANTS; i++) {
      Mutant m = mutate(SEED * 1_000_003L + i, i);
      String problem = check(codec, m);
      if (problem != null) {
        failures.add(describe(i, m, problem));
      }
    }
    long ms = (System.nanoTime() - start) / 1_000_000;
    System.out.printf("MutationFuzzTest: seed %d, %d mutants (cache off) in %d ms%n%s%n", SEED, MUTANTS, ms, stats);
    assertTrue(failures.isEmpty(), () -> report(failures));
    assertTrue(stats.accepted.get(Kind.RESIGNED_MODELLED) > MUTANTS / 100,
        "seed " + SEED + ": the modelled edits must also reach acceptance, or they test little: " + stats);
  }

  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES) // 20,000 mutants decoded twice: 57 s measured on a busy 2-core machine
  void cachedDecoderAgreesWithUncachedOnMutantsAndOriginals() {
    makeBases();
    TokenCodec plain = keys.codec(false);
    TokenCodec cached = keys.codec(true);
    List<String> failures = new ArrayList<>();
    long start = System.nanoTime();
    for (int i = 0; i < CACHED_MUTANTS; i++) {
      Random r = new Random(~SEED * 1_000_003L + 2L * i);
      if (i % 8 == 0) {
        Base b = weighted.get(r.nextInt(weighted.size()));
        String problem = check(cached, new Mutant(b.token, Kind.BLIND, "original " + b.label, null, null));
        if (problem != null) {
          failures.add(describe(i, new Mutant(b.token, Kind.BLIND, b.label, null, null), problem));
        }
      }
      Mutant m = mutate(~SEED * 1_000_003L + 2L * i + 1, i);
      String problem = check(cached, m);
      if (problem == null) {
        String a = outcome(cached, m.token);
        String e = outcome(plain, m.token);
        if (!a.equals(e)) {
          problem = "the cached decoder says " + a + " but the uncached one " + e;
        }
      }
      if (problem != null) {
        failures.add(describe(i, m, problem));
      }
    }
    long ms = (System.nanoTime() - start) / 1_000_000;
    System.out.printf("MutationFuzzTest: seed %d, %d mutants (cache on, each decoded by both) in %d ms%n", SEED,
        CACHED_MUTANTS, ms);
    assertTrue(failures.isEmpty(), () -> report(failures));
  }

  String report(List<String> failures) {
    StringBuilder sb = new StringBuilder("seed " + SEED + " (rerun with -Dsessionless.fuzz.seed=" + SEED + "): "
        + failures.size() + " failing mutants");
    failures.stream().limit(MAX_FAILURES_SHOWN).forEach(f -> sb.append("\n  ").append(f));
    return sb.toString();
  }

  static String describe(int i, Mutant m, String problem) {
    return "seed " + SEED + ", mutant #" + i + " [" + m.kind + ": " + m.what + "]: " + problem
        + "\n    token: " + printable(m.token);
  }

  static String printable(String s) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < s.length() && sb.length() < 2000; i++) {
      char c = s.charAt(i);
      if (c >= 0x20 && c < 0x7f) {
        sb.append(c);
      } else {
        sb.append(String.format("\\u%04x", (int) c));
      }
    }
    return s.length() > 2000 ? sb + "...(" + s.length() + " chars)" : sb.toString();
  }

  /** A short description of what the decoder did with a token, for comparing two decoders. */
  static String outcome(TokenCodec codec, String token) {
    try {
      SessionToken t = codec.decode(token);
      return "accepted " + Facts.of(t);
    } catch (TokenException e) {
      return e.reason().toString();
    }
  }

  // ---- properties -----------------------------------------------------------------------------

  /** Decodes one mutant; returns what is wrong, or {@code null}. */
  String check(TokenCodec codec, Mutant m) {
    try {
      return checkOrThrow(codec, m);
    } catch (RuntimeException e) {
      return "checking the outcome threw " + stackOf(e);
    }
  }

  private String checkOrThrow(TokenCodec codec, Mutant m) {
    SessionToken t;
    try {
      t = codec.decode(m.token);
    } catch (TokenException e) {
      stats.rejected(m.kind, e.reason());
      Throwable cause = e.getCause();
      if (cause != null && !(cause instanceof tools.jackson.core.JacksonException)) {
        return "rejected " + e.reason() + " but the cause is " + stackOf(cause);
      }
      switch (m.kind) {
        case RESIGNED_STRICT:
        case RESIGNED_STATE:
          return e.reason() == Reason.MALFORMED || (e.reason() == Reason.TOO_LARGE && m.token.length() > 8192)
              ? null : "a strictness break must be MALFORMED, got " + e;
        case RESIGNED_MODELLED:
          return e.reason() == m.expected ? null
              : "the model expects " + (m.expected == null ? "acceptance" : m.expected) + ", got " + e;
        default:
          return null;
      }
    } catch (Throwable e) {
      return "decode threw " + stackOf(e);
    }
    stats.accepted(m.kind);
    String stateProblem = exerciseState(t, m.kind == Kind.RESIGNED_STATE);
    switch (m.kind) {
      case BLIND: {
        Base b = byText.get(m.token);
        if (b == null) {
          return "a blind mutant was accepted: " + Facts.of(t);
        }
        Facts f = Facts.of(t);
        return !f.equals(b.facts) ? "decoded to " + f + ", not to the original's " + b.facts : stateProblem;
      }
      case RESIGNED_STRICT:
        return "a strictness break was accepted: " + Facts.of(t);
      case RESIGNED_STATE:
        return stateProblem;
      default: {
        if (m.expected != null) {
          return "the model expects " + m.expected + ", but it was accepted: " + Facts.of(t);
        }
        Facts f = Facts.of(t);
        return !f.equals(m.facts) ? "decoded to " + f + ", the edit says " + m.facts : stateProblem;
      }
    }
  }

  /**
   * Reads an accepted token's state the ways an application would; only TokenException may come
   * out. With {@code mustRefuse}, reading the state names must refuse with MALFORMED.
   */
  String exerciseState(SessionToken t, boolean mustRefuse) {
    try {
      List<String> names = new ArrayList<>(t.stateNames());
      if (mustRefuse) {
        return "the state holds a strictness break, yet its names were read: " + names;
      }
      for (String n : names) {
        try {
          t.get(n, Object.class);
        } catch (TokenException e) {
          if (e.reason() != Reason.STATE_MAPPING) {
            return "reading state '" + n + "' gave " + e;
          }
        }
      }
      t.toClaims().build();
      return null;
    } catch (TokenException e) {
      if (e.reason() != Reason.MALFORMED) {
        return "reading the state gave " + e;
      }
      return mustRefuse ? null : "an accepted token's state is unreadable: " + e;
    } catch (Throwable e) {
      return "reading the state threw " + stackOf(e);
    }
  }

  static String stackOf(Throwable e) {
    StringBuilder sb = new StringBuilder(e.toString());
    StackTraceElement[] st = e.getStackTrace();
    for (int i = 0; i < Math.min(6, st.length); i++) {
      sb.append("\n      at ").append(st[i]);
    }
    return sb.toString();
  }

  // ---- valid tokens ---------------------------------------------------------------------------

  void makeBases() {
    if (!bases.isEmpty()) {
      return;
    }
    Random r = new Random(SEED);
    TokenCodec reference = keys.codec(false);
    Object[][] mix = {
        {keys.hs256, false, 20}, {keys.hs384, false, 10}, {keys.hs512, false, 10},
        {keys.aes, false, 18}, {keys.aes, true, 18}, {keys.es256, false, 12}, {keys.eddsa, false, 12}};
    for (Object[] row : mix) {
      TokenKey key = (TokenKey) row[0];
      boolean zip = (Boolean) row[1];
      int weight = (Integer) row[2];
      // An encrypting key's payload comes from an HS256 token of the same claims.
      TokenCodec signer = signer(key.algorithm().isEncrypting() ? keys.hs256 : key);
      for (int v = 0; v < 4; v++) {
        Claims claims = claims(v, r);
        String jws = signer.encode(claims);
        String token;
        if (key.algorithm().isEncrypting()) {
          // Built by hand so the IV, and so every mutant, is reproducible from the seed.
          byte[] payload = Base64.getUrlDecoder().decode(segments(jws)[1]);
          token = keys.jwe(key, header(key, zip), zip ? deflate(payload) : payload, r);
        } else {
          token = jws;
        }
        SessionToken t = reference.decode(token);
        String payloadJson = new String(Base64.getUrlDecoder().decode(segments(jws)[1]), StandardCharsets.UTF_8);
        Base b = new Base(key.kid() + (zip ? "+zip" : "") + "#" + v, key, zip, token,
            members(header(key, zip)), members(payloadJson), Facts.of(t));
        bases.add(b);
        byText.put(token, b);
        for (int w = 0; w < weight; w++) {
          weighted.add(b);
        }
      }
    }
  }

  TokenCodec signer(TokenKey key) {
    return TokenCodec.builder().keys(keys.keySet).algorithm(key.algorithm()).issuer(ISS).audience(AUD)
        .timeToLive(Duration.ofSeconds(TTL)).clock(java.time.Clock.fixed(NOW, java.time.ZoneOffset.UTC))
        .build();
  }

  static Claims claims(int variant, Random r) {
    Claims.Builder c = Claims.builder().sessionId("sid-" + Long.toHexString(r.nextLong()));
    switch (variant) {
      case 0:
        break;
      case 1:
        c.subject("alice").put("cart", List.of(Map.of("sku", "A-1", "qty", 2))).put("n", 7);
        break;
      case 2:
        c.subject("b\u00f6b \ud83d\ude00 \"q\" \\").notBefore(NOW.minusSeconds(5))
            .put("deep", Map.of("a", List.of(1, List.of(2, List.of(3, Map.of("b", true))))))
            .put("text", "line\nbreak \u00e9\u65e5")
            .put("num", 12345678901L);
        break;
      default:
        Map<String, Object> big = new LinkedHashMap<>();
        for (int i = 0; i < 30; i++) {
          big.put("k" + i, "v".repeat(r.nextInt(30)));
        }
        c.subject("s" + r.nextInt(1000)).put("big", big).put("f", 1.25).put("nil", List.of());
    }
    return c.build();
  }

  /** The members of a JSON object as [name JSON text, value JSON text], in order. */
  static List<String[]> members(String json) {
    List<String[]> out = new ArrayList<>();
    ObjectNode node = (ObjectNode) tree(json);
    Iterator<Map.Entry<String, JsonNode>> it = node.properties().iterator();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      out.add(new String[] {quote(e.getKey()), e.getValue().toString()});
    }
    return out;
  }

  static JsonNode tree(String json) {
    try {
      return MAPPER.readTree(json);
    } catch (tools.jackson.core.JacksonException e) {
      throw new IllegalStateException(e);
    }
  }

  static String quote(String s) {
    try {
      return MAPPER.writeValueAsString(s);
    } catch (tools.jackson.core.JacksonException e) {
      throw new IllegalStateException(e);
    }
  }

  static String render(List<String[]> members) {
    StringBuilder sb = new StringBuilder("{");
    for (int i = 0; i < members.size(); i++) {
      if (i > 0) {
        sb.append(',');
      }
      sb.append(members.get(i)[0]).append(':').append(members.get(i)[1]);
    }
    return sb.append('}').toString();
  }

  static List<String[]> copy(List<String[]> members) {
    List<String[]> out = new ArrayList<>();
    for (String[] m : members) {
      out.add(m.clone());
    }
    return out;
  }

  // ---- mutation -------------------------------------------------------------------------------

  /** The mutant of this stream position; a failure to make it names the seed too. */
  Mutant mutate(long streamSeed, int i) {
    try {
      return mutate(new Random(streamSeed));
    } catch (RuntimeException e) {
      throw new AssertionError("seed " + SEED + ", mutant #" + i + ": making the mutant failed (a test bug)", e);
    }
  }

  Mutant mutate(Random r) {
    Base b = weighted.get(r.nextInt(weighted.size()));
    int p = r.nextInt(100);
    if (p < 68) {
      return blind(r, b);
    } else if (p < 82) {
      return strictBreak(r, b);
    } else if (p < 85) {
      return stateBreak(r, b);
    } else {
      return modelled(r, b);
    }
  }

  // Blind mutations: the text changes, nothing is re-signed.

  static final String[] NASTY = {"=", "==", "+", "/", " ", "\n", "\r\n", "\t", ".", "\0", "\u00e9", "\u0100",
      "\uff21", "\ud800", "\udc00", "\ud83d\ude00", "%", "\"", "{", "~", "\u007f", "\u00ff", "?", "\uff0e",
      "\u2024", "\u00a0", "A", "-", "_"};
  static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

  Mutant blind(Random r, Base b) {
    String t = b.token;
    StringBuilder what = new StringBuilder();
    int ops = 1 + (r.nextInt(4) == 0 ? r.nextInt(3) : 0);
    for (int k = 0; k < ops || (t.equals(b.token) && k < 8); k++) { // no-ops don't count
      if (k > 0) {
        what.append(", ");
      }
      t = blindOnce(r, t, what);
    }
    return new Mutant(t, Kind.BLIND, b.label + ": " + what, null, null);
  }

  String blindOnce(Random r, String t, StringBuilder what) {
    int n = t.length();
    if (n == 0) {
      what.append("insert into empty");
      return randomChars(r, 1 + r.nextInt(4));
    }
    int i = r.nextInt(n);
    switch (r.nextInt(11)) {
      case 0: {
        int bit = r.nextInt(10) == 0 ? r.nextInt(16) : r.nextInt(7);
        what.append("flip bit ").append(bit).append(" at ").append(i);
        return t.substring(0, i) + (char) (t.charAt(i) ^ (1 << bit)) + t.substring(i + 1);
      }
      case 1: {
        String c = randomChars(r, 1);
        what.append("substitute at ").append(i);
        return t.substring(0, i) + c + t.substring(i + 1);
      }
      case 2: {
        boolean keepHead = r.nextBoolean();
        what.append(keepHead ? "truncate to " : "drop the first ").append(i);
        return keepHead ? t.substring(0, i) : t.substring(i);
      }
      case 3: {
        String c = randomChars(r, 1 + r.nextInt(3));
        what.append("insert at ").append(i);
        return t.substring(0, i) + c + t.substring(i);
      }
      case 4: {
        int len = 1 + r.nextInt(Math.min(8, n - i));
        what.append("delete ").append(len).append(" at ").append(i);
        return t.substring(0, i) + t.substring(i + len);
      }
      case 5:
      case 6:
        return segmentOp(r, t, what);
      case 7:
      case 8:
        return reencode(r, t, what);
      case 9: {
        char c = t.charAt(i);
        char s = Character.isUpperCase(c) ? Character.toLowerCase(c) : Character.toUpperCase(c);
        what.append("swap case at ").append(i);
        return t.substring(0, i) + s + t.substring(i + 1);
      }
      default: {
        if (r.nextInt(4) == 0) {
          what.append("blow up past the length limit");
          return t + "A".repeat(8193 - Math.min(8192, n) + r.nextInt(100));
        }
        int dot = t.indexOf('.', i);
        what.append(dot < 0 ? "dot at " + i : "remove the dot at " + dot);
        return dot < 0 ? t.substring(0, i) + "." + t.substring(i + 1) : t.substring(0, dot) + t.substring(dot + 1);
      }
    }
  }

  static String randomChars(Random r, int count) {
    StringBuilder sb = new StringBuilder();
    for (int k = 0; k < count; k++) {
      sb.append(r.nextInt(5) < 3 ? String.valueOf(ALPHABET.charAt(r.nextInt(64))) : NASTY[r.nextInt(NASTY.length)]);
    }
    return sb.toString();
  }

  String segmentOp(Random r, String t, StringBuilder what) {
    List<String> s = new ArrayList<>(List.of(segments(t)));
    int i = r.nextInt(s.size());
    switch (r.nextInt(6)) {
      case 0: {
        int j = r.nextInt(s.size());
        Collections.swap(s, i, j);
        what.append("swap segments ").append(i).append(", ").append(j);
        break;
      }
      case 1:
        s.add(r.nextInt(s.size() + 1), s.get(i));
        what.append("duplicate segment ").append(i);
        break;
      case 2:
        s.remove(i);
        what.append("remove segment ").append(i);
        break;
      case 3:
        s.set(i, "");
        what.append("empty segment ").append(i);
        break;
      default: {
        Base other = bases.get(r.nextInt(bases.size()));
        String[] o = segments(other.token);
        s.set(i, o[Math.min(i, o.length - 1)]);
        what.append("segment ").append(i).append(" from ").append(other.label);
      }
    }
    return String.join(".", s);
  }

  static String reencode(Random r, String t, StringBuilder what) {
    String[] s = segments(t);
    int i = r.nextInt(s.length);
    byte[] bytes;
    try {
      bytes = Base64.getUrlDecoder().decode(s[i]);
    } catch (IllegalArgumentException e) {
      what.append("re-encode (segment ").append(i).append(" undecodable, unchanged)");
      return t;
    }
    switch (r.nextInt(5)) {
      case 0:
        s[i] = Base64.getEncoder().encodeToString(bytes);
        what.append("standard base64 with padding, segment ").append(i);
        break;
      case 1:
        s[i] = Base64.getUrlEncoder().encodeToString(bytes);
        what.append("base64url with padding, segment ").append(i);
        break;
      case 2:
        s[i] = Base64.getMimeEncoder(8 + 4 * r.nextInt(10), "\r\n".getBytes(StandardCharsets.US_ASCII))
            .encodeToString(bytes).replace('+', '-').replace('/', '_').replace("=", "");
        what.append("line-folded, segment ").append(i);
        break;
      case 3:
        s[i] = Base64.getEncoder().withoutPadding().encodeToString(bytes);
        what.append("standard alphabet, segment ").append(i);
        break;
      default: {
        String seg = s[i];
        int unused = seg.length() % 4 == 2 ? 4 : seg.length() % 4 == 3 ? 2 : 0;
        if (unused == 0 || seg.isEmpty()) {
          what.append("non-canonical tail (segment ").append(i).append(" has none, unchanged)");
          return t;
        }
        int last = ALPHABET.indexOf(seg.charAt(seg.length() - 1));
        int bumped = last | (1 + r.nextInt((1 << unused) - 1));
        s[i] = seg.substring(0, seg.length() - 1) + ALPHABET.charAt(bumped);
        what.append("non-zero unused bits, segment ").append(i);
      }
    }
    return String.join(".", s);
  }

  // Re-signed edits. Each keeps everything else valid, re-signs with the base's own key, and
  // states the outcome it must have.

  /** Re-signs (or re-encrypts) these header and payload bytes with the base's key. */
  String seal(Random r, Base b, byte[] header, byte[] payload) {
    if (b.key.algorithm().isEncrypting()) {
      return keys.jweSegments(b.key, b64(header), "", b.zip ? deflate(payload) : payload, HostileTokens.bytes(r, 12), 128);
    }
    return keys.jws(b.key, header, payload);
  }

  String seal(Random r, Base b, String header, String payload) {
    return seal(r, b, utf8(header), utf8(payload));
  }

  static final String[] REGISTERED = {"iss", "aud", "iat", "exp", "jti", "sub", "nbf", "st"};

  Mutant strictBreak(Random r, Base b) {
    List<String[]> p = copy(b.payload);
    List<String[]> h = copy(b.header);
    String header = render(h);
    switch (r.nextInt(14)) {
      case 0: { // a registered member twice, perhaps spelled with an escape
        String[] m = p.get(r.nextInt(p.size()));
        String name = unquote(m[0]);
        String value = r.nextBoolean() ? m[1] : wrongOrOtherValue(r, name);
        p.add(r.nextInt(p.size() + 1), new String[] {escapeSome(r, name), value});
        return strict(r, b, header, render(p), "member '" + name + "' twice");
      }
      case 1: { // an unknown member twice
        String name = "x" + r.nextInt(3);
        p.add(r.nextInt(p.size() + 1), new String[] {quote(name), randomJson(r, 2)});
        p.add(r.nextInt(p.size() + 1), new String[] {escapeSome(r, name), randomJson(r, 2)});
        return strict(r, b, header, render(p), "unknown member twice");
      }
      case 2:
      case 3: { // a registered claim of the wrong type
        String name = REGISTERED[r.nextInt(REGISTERED.length)];
        String value = wrongType(r, name);
        int at = indexOf(p, name);
        if (at < 0) {
          p.add(r.nextInt(p.size() + 1), new String[] {quote(name), value});
        } else {
          p.get(at)[1] = value;
        }
        return strict(r, b, header, render(p), "'" + name + "' as " + value);
      }
      case 4: { // trailing data
        String[] tails = {"x", "{}", "}", "]", ",", "0", "\"\"", "null", "/**/", "//c", "\0", "[]", ":1", "{\"a\":1}"};
        String tail = tails[r.nextInt(tails.length)];
        return strict(r, b, header, render(p) + tail, "trailing " + printable(tail));
      }
      case 5: { // nesting beyond 32 levels
        int depth = 33 + r.nextInt(150);
        String deep = r.nextBoolean() ? "[".repeat(depth) + "]".repeat(depth) : nestedObjects(depth);
        if (r.nextBoolean()) {
          p.add(r.nextInt(p.size() + 1), new String[] {quote("deep"), deep});
        } else {
          int st = indexOf(p, "st");
          if (st < 0) {
            p.add(new String[] {quote("st"), "{\"d\":" + deep + "}"});
          } else {
            p.get(st)[1] = "{\"d\":" + deep + (p.get(st)[1].equals("{}") ? "}" : "," + p.get(st)[1].substring(1));
          }
        }
        return strict(r, b, header, render(p), "nested " + depth + " deep");
      }
      case 6: { // invalid UTF-8 bytes inside a string
        byte[][] bad = {{(byte) 0xFF}, {(byte) 0xC0, (byte) 0xAF}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
            {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, {(byte) 0x80}, {(byte) 0xE2, (byte) 0x82},
            {(byte) 0xC3}, {(byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80}, {(byte) 0xE0, (byte) 0x9F, (byte) 0xBF}};
        byte[] raw = bad[r.nextInt(bad.length)];
        String name = r.nextBoolean() ? "sub" : "x";
        int at = indexOf(p, name);
        String marker = "\u0001MARK\u0001";
        if (at < 0) {
          p.add(r.nextInt(p.size() + 1), new String[] {quote(name), "\"a" + marker + "b\""});
        } else {
          p.get(at)[1] = "\"a" + marker + "b\"";
        }
        String[] parts = render(p).split(marker, -1);
        byte[] payload = concat(utf8(parts[0]), raw, utf8(parts[1]));
        return new Mutant(seal(r, b, utf8(header), payload), Kind.RESIGNED_STRICT, b.label + ": invalid UTF-8 in " + name,
            null, null);
      }
      case 7: { // an unpaired surrogate in sub or jti
        String name = r.nextBoolean() ? "sub" : "jti";
        String[] lone = {"\\ud800", "\\udfff", "\\udc00\\ud800", "x\\ud83d", "\\ude00y"};
        String v = "\"" + lone[r.nextInt(lone.length)] + "\"";
        int at = indexOf(p, name);
        if (at < 0) {
          p.add(new String[] {quote(name), v});
        } else {
          p.get(at)[1] = v;
        }
        return strict(r, b, header, render(p), "lone surrogate in " + name);
      }
      case 8: { // not one object
        String json = render(p);
        String[] shapes = {"[" + json + "]", "\"" + json.replace("\"", "\\\"") + "\"", "42", "null", "true", "",
            json.substring(0, r.nextInt(json.length())), "[]", json + json};
        return strict(r, b, header, shapes[r.nextInt(shapes.length)], "payload not one object");
      }
      case 9: { // broken syntax between members
        String json = render(p);
        String[] variants = {
            json.replaceFirst(",", ""), json.replaceFirst("\":", "\" "), json.replace("{\"", "{'").replaceFirst("\":", "':"),
            "{" + json.substring(2).replaceFirst("\"", ""), json.substring(0, json.length() - 1) + ",}",
            "{," + json.substring(1), json.replaceFirst(",", ",/*c*/"), json.replaceFirst(",", ",,")};
        int v = r.nextInt(variants.length);
        return strict(r, b, header, variants[v], "syntax break " + v);
      }
      case 10: { // not UTF-8 at all
        String json = render(p);
        byte[][] forms = {json.getBytes(StandardCharsets.UTF_16BE), json.getBytes(StandardCharsets.UTF_16LE),
            json.getBytes(java.nio.charset.Charset.forName("UTF-32LE")),
            concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, utf8(json))};
        int f = r.nextInt(forms.length);
        return new Mutant(seal(r, b, utf8(header), forms[f]), Kind.RESIGNED_STRICT, b.label + ": encoding form " + f,
            null, null);
      }
      case 11: { // a raw control character inside a string, or a malformed number
        String name = new String[] {"sub", "exp", "iat", "nbf"}[r.nextInt(4)];
        String v = name.equals("sub") ? "\"a" + (char) r.nextInt(0x20) + "b\""
            : new String[] {"0" + NOW_S, "+" + NOW_S, "." + NOW_S, NOW_S + ".", "NaN", "Infinity", "0x10", "--1", "1e", "-"}[r.nextInt(10)];
        int at = indexOf(p, name);
        if (at < 0) {
          p.add(new String[] {quote(name), v});
        } else {
          p.get(at)[1] = v;
        }
        return strict(r, b, header, render(p), name + " as " + printable(v));
      }
      default: { // header strictness: duplicates, types, trailing data, nesting, encoding
        String body = header.substring(1, header.length() - 1);
        String[] variants = {
            "{\"alg\":\"" + b.key.algorithm().joseName() + "\"," + body + "}",
            "{" + body + ",\"\\u006bid\":\"" + b.key.kid() + "\"}",
            "{" + body + ",\"k\\u0069d\":\"nope\"}",
            header + "{}", header + "x", "[" + header + "]", "{" + body + ",\"x\":" + nestedObjects(40) + "}",
            "{" + body + ",\"x\":1,\"x\":1}",
            header.replace("\"alg\":\"" + b.key.algorithm().joseName() + "\"", "\"alg\":1"),
            header.replace("\"kid\":\"" + b.key.kid() + "\"", "\"kid\":null"),
            header.substring(0, header.length() - 1), "{" + body + ",}"};
        int v = r.nextInt(variants.length);
        return strict(r, b, variants[v], render(p), "header break " + v);
      }
    }
  }

  Mutant strict(Random r, Base b, String header, String payload, String what) {
    return new Mutant(seal(r, b, header, payload), Kind.RESIGNED_STRICT, b.label + ": " + what, null, null);
  }

  /** Strictness breaks inside the state, which decode may pass on but reading the state must refuse. */
  Mutant stateBreak(Random r, Base b) {
    List<String[]> p = copy(b.payload);
    String inner;
    String what;
    switch (r.nextInt(5)) {
      case 4:
        inner = (r.nextBoolean() ? "\"\"" : q("n".repeat(257))) + ":1";
        what = "a state name Claims would refuse";
        break;
      case 0:
        inner = "\"role\":\"user\",\"" + (r.nextBoolean() ? "role" : "r\\u006fle") + "\":\"admin\"";
        what = "member twice in the state";
        break;
      case 1:
        inner = "\"a\":[1,{\"k\":1,\"\\u006b\":2}]";
        what = "member twice deep in the state";
        break;
      case 2:
        inner = "\"a\":{\"b\":\"x\\ud800\"}";
        what = "lone surrogate in a state string";
        break;
      default:
        inner = "\"\\udfff\":1";
        what = "lone surrogate in a state member name";
    }
    int st = indexOf(p, "st");
    if (st < 0) {
      p.add(r.nextInt(p.size() + 1), new String[] {quote("st"), "{" + inner + "}"});
    } else {
      String v = p.get(st)[1];
      p.get(st)[1] = "{" + inner + (v.equals("{}") ? "}" : "," + v.substring(1));
    }
    return new Mutant(seal(r, b, render(b.header), render(p)), Kind.RESIGNED_STATE, b.label + ": " + what, null, null);
  }

  /** Valid-JSON edits whose outcome an independent model of the checks predicts exactly. */
  Mutant modelled(Random r, Base b) {
    List<String[]> p = copy(b.payload);
    List<String[]> h = copy(b.header);
    StringBuilder what = new StringBuilder();
    int edits = 1 + r.nextInt(3);
    for (int k = 0; k < edits; k++) {
      if (k > 0) {
        what.append(", ");
      }
      if (r.nextInt(6) == 0) {
        editHeader(r, b, h, what);
      } else {
        editPayload(r, p, what);
      }
    }
    String header = render(h);
    String payload = render(p);
    if (r.nextInt(4) == 0) {
      payload = sprinkleWhitespace(r, payload);
      what.append(", whitespace");
    }
    String token = seal(r, b, header, payload);
    Object outcome = token.length() > 8192 ? Reason.TOO_LARGE : model(b, h, p);
    return outcome instanceof Reason
        ? new Mutant(token, Kind.RESIGNED_MODELLED, b.label + ": " + what, (Reason) outcome, null)
        : new Mutant(token, Kind.RESIGNED_MODELLED, b.label + ": " + what, null, (Facts) outcome);
  }

  void editPayload(Random r, List<String[]> p, StringBuilder what) {
    switch (r.nextInt(9)) {
      case 0:
      case 1: { // a NumericDate near the boundaries, or far
        String name = new String[] {"exp", "iat", "nbf"}[r.nextInt(3)];
        long[] around = {NOW_S, NOW_S - LEEWAY, NOW_S - LEEWAY + 1, NOW_S + LEEWAY, NOW_S + LEEWAY + 1,
            NOW_S - LEEWAY - 1, NOW_S + TTL, NOW_S - TTL, 0, ClaimRules.MAX_NUMERIC_DATE, NOW_S + 1_000_000};
        long v = around[r.nextInt(around.length)] + (r.nextInt(4) == 0 ? r.nextInt(5) - 2 : 0);
        v = Math.max(0, Math.min(ClaimRules.MAX_NUMERIC_DATE, v));
        set(p, name, String.valueOf(v));
        what.append(name).append("=").append(v - NOW_S >= 0 ? "now+" : "now").append(v - NOW_S);
        break;
      }
      case 2: { // iss
        String[] v = {q(ISS), q(ISS + "/"), q(""), q(ISS.toUpperCase()), "\"https:\\/\\/shop.example\"",
            "\"\\u0068ttps://shop.example\"", q("https://evil.example")};
        String s = v[r.nextInt(v.length)];
        set(p, "iss", s);
        what.append("iss=").append(s);
        break;
      }
      case 3: { // aud
        String[] v = {q(AUD), q("x"), "[" + q(AUD) + "]", "[\"x\"," + q(AUD) + "]", "[]", "[\"x\",\"y\"]",
            "\"sh\\u006fp\"", q("Shop")};
        String s = v[r.nextInt(v.length)];
        set(p, "aud", s);
        what.append("aud=").append(s);
        break;
      }
      case 4: { // sub or jti
        String name = r.nextBoolean() ? "sub" : "jti";
        String s = r.nextInt(5) == 0 ? q("j".repeat(127 + r.nextInt(3))) : "\"" + randomString(r) + "\"";
        set(p, name, s);
        what.append(name).append(" changed");
        break;
      }
      case 5: { // a member removed
        String[] m = p.remove(r.nextInt(p.size()));
        what.append("removed ").append(m[0]);
        if (p.isEmpty()) {
          p.add(new String[] {quote("x"), "1"});
        }
        break;
      }
      case 6: { // unknown members with any valid JSON
        String name;
        do {
          name = "u" + r.nextInt(1_000);
        } while (indexOf(p, name) >= 0);
        p.add(r.nextInt(p.size() + 1), new String[] {quote(name), randomJson(r, 4)});
        what.append("unknown member added");
        break;
      }
      case 7: { // a new state
        StringBuilder st = new StringBuilder("{");
        int count = r.nextInt(5);
        for (int i = 0; i < count; i++) {
          st.append(i > 0 ? "," : "").append(escapeSome(r, "s" + i)).append(':').append(randomJson(r, 5));
        }
        set(p, "st", st.append('}').toString());
        what.append("new state");
        break;
      }
      default: { // members reordered, or a name spelled with escapes
        if (r.nextBoolean()) {
          Collections.shuffle(p, r);
          what.append("members shuffled");
        } else {
          String[] m = p.get(r.nextInt(p.size()));
          m[0] = escapeSome(r, unquote(m[0]));
          what.append("name ").append(m[0]);
        }
      }
    }
  }

  void editHeader(Random r, Base b, List<String[]> h, StringBuilder what) {
    switch (r.nextInt(7)) {
      case 0:
        set(h, "typ", q(new String[] {"JWT", "jwt", "JOSE", "at+jwt", "sl-internal+jwt"}[r.nextInt(5)]));
        what.append("typ set");
        break;
      case 1:
        String name = "x" + r.nextInt(100);
        if (indexOf(h, name) < 0) {
          h.add(r.nextInt(h.size() + 1), new String[] {quote(name), randomJson(r, 3)});
        }
        what.append("unknown header member");
        break;
      case 2:
        Collections.shuffle(h, r);
        what.append("header shuffled");
        break;
      case 3: {
        String kid = new String[] {"hs256", "hs384", "hs512", "es256", "eddsa", "aes", "nope", ""}[r.nextInt(8)];
        set(h, "kid", q(kid));
        what.append("kid=").append(kid);
        break;
      }
      case 4: {
        String alg = new String[] {"HS256", "HS384", "HS512", "ES256", "EdDSA", "dir", "none", "None", "RS256"}[r.nextInt(9)];
        set(h, "alg", q(alg));
        what.append("alg=").append(alg);
        break;
      }
      case 5: {
        String[] member = {"crit", "[\"exp\"]", "cty", "\"JWT\"", "enc", "\"A128GCM\"", "enc", "\"A256GCM\"", "zip", "\"DEF\""};
        int i = 2 * r.nextInt(member.length / 2);
        if (member[i].equals("zip") && b.key.algorithm().isEncrypting()) {
          break; // re-encryption compresses only as the base did
        }
        set(h, member[i], member[i + 1]);
        what.append(member[i]).append('=').append(member[i + 1]);
        break;
      }
      default: {
        if (h.isEmpty()) {
          what.append("nothing left to remove");
          break;
        }
        int at = r.nextInt(h.size());
        if (!unquote(h.get(at)[0]).equals("zip")) {
          what.append("removed header ").append(h.remove(at)[0]);
        }
      }
    }
  }

  /**
   * The outcome the documented checks give an edited, valid-JSON token signed with the base's
   * key: a Reason, or the Facts it must decode to. Independent of the decoder's code.
   */
  Object model(Base b, List<String[]> header, List<String[]> payload) {
    Map<String, JsonNode> h = byName(header);
    JsonNode typ = h.get("typ");
    if (h.containsKey("crit") || h.containsKey("cty")) {
      return Reason.UNSUPPORTED_HEADER;
    }
    JsonNode alg = h.get("alg");
    if (alg == null) {
      return Reason.MALFORMED;
    }
    if (alg.asString().equalsIgnoreCase("none")) {
      return Reason.ALGORITHM_MISMATCH;
    }
    JsonNode kid = h.get("kid");
    TokenKey key = kid == null ? null : keys.keySet.key(kid.asString()).orElse(null);
    if (key == null) {
      return Reason.UNKNOWN_KEY;
    }
    JsonNode enc = h.get("enc");
    if (!key.algorithm().joseName().equals(alg.asString())
        || !Objects.equals(key.algorithm().encryption().orElse(null), enc == null ? null : enc.asString())) {
      return Reason.ALGORITHM_MISMATCH;
    }
    if (h.containsKey("zip") && !key.algorithm().isEncrypting()) {
      return Reason.UNSUPPORTED_HEADER;
    }
    if (typ != null && !typ.asString().equalsIgnoreCase("JWT")) {
      return Reason.WRONG_TOKEN_TYPE; // a session codec takes no typ or JWT, bound once the key is known
    }
    if (key.algorithm().isEncrypting() != b.key.algorithm().isEncrypting()) {
      return Reason.MALFORMED; // the segment count does not fit the named key
    }
    if (key != b.key) {
      return Reason.BAD_SIGNATURE;
    }
    Map<String, JsonNode> c = byName(payload);
    JsonNode jti = c.get("jti");
    if (jti != null && (jti.asString().isEmpty() || jti.asString().length() > 128)) {
      return Reason.MALFORMED; // not a session id Claims could carry on; found while parsing
    }
    JsonNode iss = c.get("iss");
    JsonNode aud = c.get("aud");
    if (iss == null) {
      return Reason.MISSING_CLAIM;
    }
    if (!iss.asString().equals(ISS)) {
      return Reason.WRONG_ISSUER;
    }
    if (aud == null) {
      return Reason.MISSING_CLAIM;
    }
    boolean audOk = aud.isString() ? aud.asString().equals(AUD) : contains(aud, AUD);
    if (!audOk) {
      return Reason.WRONG_AUDIENCE;
    }
    if (c.get("exp") == null || c.get("iat") == null || c.get("jti") == null) {
      return Reason.MISSING_CLAIM;
    }
    long exp = c.get("exp").asLong();
    long iat = c.get("iat").asLong();
    Long nbf = c.containsKey("nbf") ? c.get("nbf").asLong() : null;
    if (NOW_S - LEEWAY >= exp) {
      return Reason.EXPIRED;
    }
    if (nbf != null && NOW_S + LEEWAY < nbf) {
      return Reason.NOT_YET_VALID;
    }
    if (iat > NOW_S + LEEWAY) {
      return Reason.ISSUED_IN_FUTURE;
    }
    JsonNode sub = c.get("sub");
    JsonNode st = c.get("st");
    return new Facts(c.get("jti").asString(), sub == null ? null : sub.asString(), exp, iat, nbf, kid.asString(),
        st == null ? MAPPER.createObjectNode() : st);
  }

  static boolean contains(JsonNode array, String s) {
    for (JsonNode n : array) {
      if (n.asString().equals(s)) {
        return true;
      }
    }
    return false;
  }

  static Map<String, JsonNode> byName(List<String[]> members) {
    Map<String, JsonNode> out = new TreeMap<>();
    for (String[] m : members) {
      out.put(unquote(m[0]), tree(m[1]));
    }
    return out;
  }

  // ---- JSON text helpers ----------------------------------------------------------------------

  static String q(String s) {
    return quote(s);
  }

  static String unquote(String nameJson) {
    try {
      return MAPPER.readValue(nameJson, String.class);
    } catch (tools.jackson.core.JacksonException e) {
      throw new IllegalStateException(e);
    }
  }

  static int indexOf(List<String[]> members, String name) {
    for (int i = 0; i < members.size(); i++) {
      if (unquote(members.get(i)[0]).equals(name)) {
        return i;
      }
    }
    return -1;
  }

  static void set(List<String[]> members, String name, String value) {
    int at = indexOf(members, name);
    if (at < 0) {
      members.add(new String[] {quote(name), value});
    } else {
      members.get(at)[1] = value;
    }
  }

  /** The name as a JSON string with some of its characters written as {@code \\u} escapes. */
  static String escapeSome(Random r, String name) {
    StringBuilder sb = new StringBuilder("\"");
    boolean escaped = false;
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if ((r.nextInt(3) == 0 || (!escaped && i == name.length() - 1)) && c < 0x80) {
        sb.append(String.format(r.nextBoolean() ? "\\u%04x" : "\\u%04X", (int) c));
        escaped = true;
      } else {
        sb.append(c);
      }
    }
    return sb.append('"').toString();
  }

  static String wrongOrOtherValue(Random r, String name) {
    switch (name) {
      case "exp":
      case "iat":
      case "nbf":
        return String.valueOf(NOW_S + r.nextInt(100_000));
      case "st":
        return "{\"role\":\"admin\"}";
      case "aud":
        return "[\"x\"]";
      default:
        return q("other");
    }
  }

  static String wrongType(Random r, String name) {
    String[] v;
    switch (name) {
      case "exp":
      case "iat":
      case "nbf":
        v = new String[] {q(String.valueOf(NOW_S)), "null", "true", NOW_S + ".5", NOW_S + ".0", "1.8E9", "1e3", "-1",
            "-" + NOW_S, "99999999999999999999", "253402300800", "[" + NOW_S + "]", "{}", "9".repeat(65),
            String.valueOf(Long.MIN_VALUE), "-0.0", "1E400"};
        break;
      case "aud":
        v = new String[] {"1", "true", "null", "{}", "[1]", "[" + q(AUD) + ",2]", "[null]", "[[]]", "[{}]", "1.5"};
        break;
      case "st":
        v = new String[] {"[]", q("x"), "1", "null", "true", "[{}]"};
        break;
      default:
        v = new String[] {"1", "true", "false", "null", "{}", "[]", "[" + q(ISS) + "]", "1.5", "{\"a\":\"b\"}"};
    }
    return v[r.nextInt(v.length)];
  }

  static String nestedObjects(int depth) {
    return "{\"a\":".repeat(depth - 1) + "{}" + "}".repeat(depth - 1);
  }

  static final String[] PIECES = {"a", "Z", "0", " ", "\\n", "\\\"", "\\\\", "\\/", "\\u00e9", "\\u0041",
      "\\ud83d\\ude00", "\u00e9", "\u65e5", "\ud83d\ude00", "\\t", "-", "_", "<", "&", "\\u0000"};

  static String randomString(Random r) {
    StringBuilder sb = new StringBuilder();
    int n = r.nextInt(12);
    for (int i = 0; i < n; i++) {
      sb.append(PIECES[r.nextInt(PIECES.length)]);
    }
    return sb.toString();
  }

  /** Random valid JSON of at most {@code depth} levels, member names unique. */
  static String randomJson(Random r, int depth) {
    int kind = depth <= 1 ? r.nextInt(6) : r.nextInt(8);
    switch (kind) {
      case 0:
        return "\"" + randomString(r) + "\"";
      case 1:
        return String.valueOf(r.nextInt(2000) - 1000);
      case 2:
        return new String[] {"1.5", "-0.25e-3", "1E10", "12345678901234567890", "0", "-0", "3.0"}[r.nextInt(7)];
      case 3:
        return new String[] {"true", "false", "null"}[r.nextInt(3)];
      case 4:
        return "[]";
      case 5:
        return "{}";
      case 6: {
        StringBuilder sb = new StringBuilder("[");
        int n = 1 + r.nextInt(3);
        for (int i = 0; i < n; i++) {
          sb.append(i > 0 ? "," : "").append(randomJson(r, depth - 1));
        }
        return sb.append(']').toString();
      }
      default: {
        StringBuilder sb = new StringBuilder("{");
        int n = 1 + r.nextInt(3);
        for (int i = 0; i < n; i++) {
          sb.append(i > 0 ? "," : "").append(escapeSome(r, "m" + i)).append(':').append(randomJson(r, depth - 1));
        }
        return sb.append('}').toString();
      }
    }
  }

  /** Whitespace inserted after some structural characters (outside strings). */
  static String sprinkleWhitespace(Random r, String json) {
    StringBuilder sb = new StringBuilder();
    boolean inString = false;
    for (int i = 0; i < json.length(); i++) {
      char c = json.charAt(i);
      sb.append(c);
      if (inString) {
        if (c == '\\') {
          sb.append(json.charAt(++i));
        } else if (c == '"') {
          inString = false;
        }
      } else if (c == '"') {
        inString = true;
      } else if ((c == ',' || c == ':' || c == '{' || c == '[') && r.nextInt(3) == 0) {
        sb.append(new String[] {" ", "\n", "\t", "\r\n", "  "}[r.nextInt(5)]);
      }
    }
    return (r.nextBoolean() ? " " : "") + sb + (r.nextBoolean() ? "\n" : "");
  }

  // ---- statistics -----------------------------------------------------------------------------

  /** Counts, printed with the result so a run shows what it exercised. */
  static final class Stats {
    final Map<Kind, Integer> accepted = new EnumMap<>(Kind.class);
    final Map<Kind, Map<Reason, Integer>> rejected = new EnumMap<>(Kind.class);

    Stats() {
      for (Kind k : Kind.values()) {
        accepted.put(k, 0);
        rejected.put(k, new EnumMap<>(Reason.class));
      }
    }

    void accepted(Kind k) {
      accepted.merge(k, 1, Integer::sum);
    }

    void rejected(Kind k, Reason reason) {
      rejected.get(k).merge(reason, 1, Integer::sum);
    }

    @Override
    public String toString() {
      StringBuilder sb = new StringBuilder();
      for (Kind k : Kind.values()) {
        sb.append("  ").append(k).append(": accepted ").append(accepted.get(k)).append(", rejected ")
            .append(rejected.get(k)).append('\n');
      }
      return sb.toString();
    }
  }

  @Test
  void theModelAgreesWithTheDecoderOnTheUneditedTokens() {
    makeBases();
    TokenCodec codec = keys.codec(false);
    for (Base b : bases) {
      Object expected = model(b, b.header, b.payload);
      assertEquals(b.facts, expected, "seed " + SEED + ": " + b.label);
      assertEquals(b.facts, Facts.of(codec.decode(b.token)), "seed " + SEED + ": " + b.label);
    }
    assertEquals(28, bases.size());
    Function<Base, String> alg = x -> x.key.algorithm().toString();
    assertEquals(6, bases.stream().map(alg).distinct().count(), "every algorithm is fuzzed");
  }
}
