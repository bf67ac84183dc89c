package dev.sessionless.keyring.internal.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.EncryptedJwks;
import dev.sessionless.testing.FakeClock;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every command in-process, with real files in a temporary directory and a hand-moved clock. */
class KeyringCliTest {
  static final Instant T0 = Instant.parse("2026-11-01T00:00:00Z");
  static final String PASSWORD = "a long enough password";
  static final String FAST = "--iterations=100000";

  @TempDir Path dir;
  final FakeClock clock = new FakeClock(T0);
  final Map<String, String> env = new HashMap<>();
  final byte[] kek = new byte[32];

  KeyringCliTest() {
    new SecureRandom().nextBytes(kek);
    env.put("PW", PASSWORD);
    env.put("KEK", Base64.getUrlEncoder().withoutPadding().encodeToString(kek));
  }

  record Result(int code, String out, String err) {
    Result ok() {
      assertEquals(0, code, () -> "exit 0 expected; stderr: " + err);
      return this;
    }

    /** The row of {@code list} output for a kid, split into columns. */
    String[] row(String kid) {
      return out.lines().filter(l -> l.startsWith(kid + " ")).findFirst()
          .map(l -> l.trim().split("\\s+"))
          .orElseThrow(() -> new AssertionError("no row for " + kid + " in\n" + out));
    }

    String status(String kid) {
      return row(kid)[2];
    }
  }

  Result run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = KeyringCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), env, clock);
    return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  Path file(String name) {
    return dir.resolve(name);
  }

  String p(String name) {
    return file(name).toString();
  }

  static String read(Path f) throws IOException {
    return Files.readString(f);
  }

  static String permissions(Path f) throws IOException {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(f));
  }

  static KeySet keys(Path f) throws IOException {
    return KeySet.fromJwks(read(f));
  }

  /** Every {@code k} and {@code d} value in a JWKS with secrets. */
  static List<String> secrets(KeySet keys) throws IOException {
    List<String> s = new ArrayList<>();
    for (JsonNode k : new ObjectMapper().readTree(keys.toJwksWithSecrets()).get("keys")) {
      for (String m : new String[] {"k", "d"}) {
        if (k.has(m)) {
          s.add(k.get(m).stringValue());
        }
      }
    }
    return s;
  }

  static void assertOneLineError(Result r, int code) {
    assertEquals(code, r.code, () -> "exit code; stderr: " + r.err);
    assertTrue(r.err.startsWith("keyring: "), r.err);
    assertTrue(r.err.endsWith("\n"), r.err);
    assertEquals(1, r.err.lines().count(), () -> "one line: " + r.err);
    assertFalse(r.err.contains("Exception") || r.err.contains("\tat "), r.err);
    assertEquals("", r.out);
  }

  String onlyKid(Path f) throws IOException {
    List<TokenKey> k = keys(f).keys();
    assertEquals(1, k.size());
    return k.get(0).kid();
  }

  // ---- init and list ------------------------------------------------------------------------

  @Test
  void initMakesAnA256gcmKeySoTokensAreEncryptedByDefault() throws IOException {
    Result init = run("init", "--out", p("keys.json")).ok();
    TokenKey key = keys(file("keys.json")).keys().get(0);
    assertEquals(Algorithm.DIR_A256GCM, key.algorithm());
    assertTrue(key.kid().startsWith("a256gcm-"), key.kid());
    assertFalse(init.out.contains("not encrypted"), init.out);
  }

  @Test
  void initWithASigningAlgorithmSaysItsTokensAreReadable() throws IOException {
    Result init = run("init", "--out", p("keys.json"), "--alg", "HS256").ok();
    assertEquals(Algorithm.HS256, keys(file("keys.json")).keys().get(0).algorithm());
    assertTrue(init.out.contains("signed, not encrypted") && init.out.contains("algorithm HS256"), init.out);
  }

  @Test
  void initThenListShowsOneSigningKey() throws IOException {
    run("init", "--out", p("keys.json")).ok();
    String kid = onlyKid(file("keys.json"));
    Result list = run("list", "--in", p("keys.json")).ok();
    assertEquals(3, list.out.lines().count(), list.out); // summary, header, one key
    assertEquals("dir", list.row(kid)[1]);
    assertEquals("SIGNING", list.status(kid));
    assertEquals(T0.toString(), list.row(kid)[3], "published now");
    assertEquals(T0.toString(), list.row(kid)[4], "activates now");
    assertEquals("-", list.row(kid)[5]);
    assertEquals("", list.err);
  }

  @Test
  void initMakesAKeyOfEveryAlgorithmWithTheGivenKid() throws IOException {
    for (String alg : new String[] {"HS256", "HS384", "HS512", "ES256", "EdDSA", "dir"}) {
      Path f = file(alg + ".json");
      run("init", "--out", f.toString(), "--alg", alg, "--kid", "my-" + alg).ok();
      TokenKey k = keys(f).key("my-" + alg).orElseThrow();
      assertEquals(alg, k.algorithm().joseName());
      assertTrue(k.signsAt(T0));
    }
    run("init", "--out", p("lower.json"), "--alg", "eddsa").ok();
    assertEquals(Algorithm.EDDSA, keys(file("lower.json")).keys().get(0).algorithm());
  }

  @Test
  void initWritesTheKeyFileOwnerOnly() throws IOException {
    run("init", "--out", p("keys.json")).ok();
    assertEquals("rw-------", permissions(file("keys.json")));
    run("init", "--out", p("enc.jwe"), "--encrypt", "--password-env", "PW", FAST).ok();
    assertEquals("rw-------", permissions(file("enc.jwe")));
  }

  @Test
  void initRefusesToReplaceAnExistingFileUnlessForced() throws IOException {
    run("init", "--out", p("keys.json")).ok();
    String before = read(file("keys.json"));
    assertOneLineError(run("init", "--out", p("keys.json")), 1);
    assertEquals(before, read(file("keys.json")), "left alone");
    run("init", "--out", p("keys.json"), "--force").ok();
    assertFalse(before.equals(read(file("keys.json"))));
  }

  @Test
  void writingLeavesNoTemporaryFilesBehind() throws IOException {
    run("init", "--out", p("keys.json"), "--alg", "ES256").ok();
    run("rotate", "--in", p("keys.json")).ok();
    run("encrypt", "--in", p("keys.json"), "--out", p("keys.jwe"), "--kek-env", "KEK").ok();
    run("decrypt", "--in", p("keys.jwe"), "--out", p("plain.json"), "--kek-env", "KEK").ok();
    run("public", "--in", p("keys.json"), "--out", p("public.json")).ok();
    try (Stream<Path> s = Files.list(dir)) {
      assertEquals(Set.of("keys.json", "keys.jwe", "plain.json", "public.json"),
          s.map(f -> f.getFileName().toString()).collect(Collectors.toSet()));
    }
  }

  // ---- rotate -------------------------------------------------------------------------------

  @Test
  void rotatedKeyIsPendingThenSignsWhileTheOldRetiresExpiresAndIsFinallyDropped() throws IOException {
    run("init", "--out", p("keys.json")).ok();
    String old = onlyKid(file("keys.json"));
    clock.advance(Duration.ofHours(1));
    Result rotate = run("rotate", "--in", p("keys.json"), "--activate-in", "24h", "--max-token-lifetime", "2h").ok();
    String fresh = keys(file("keys.json")).keys().stream().map(TokenKey::kid)
        .filter(k -> !k.equals(old)).findFirst().orElseThrow();
    assertTrue(rotate.out.contains("added " + fresh), rotate.out);
    Instant activation = T0.plus(Duration.ofHours(25));

    Result list = run("list", "--in", p("keys.json")).ok();
    assertEquals("SIGNING", list.status(old));
    assertEquals("PENDING", list.status(fresh));
    assertEquals(activation.toString(), list.row(fresh)[4]);
    assertEquals(activation.toString(), list.row(old)[5], "old retires when the new one activates");
    assertEquals(activation.plus(Duration.ofHours(2)).toString(), list.row(old)[6], "and expires a token lifetime later");

    clock.set(activation.minusSeconds(1));
    assertEquals("SIGNING", run("list", "--in", p("keys.json")).ok().status(old));
    clock.set(activation);
    list = run("list", "--in", p("keys.json")).ok();
    assertEquals("SIGNING", list.status(fresh));
    assertEquals("RETIRED", list.status(old));

    clock.set(activation.plus(Duration.ofHours(2)));
    assertEquals("EXPIRED", run("list", "--in", p("keys.json")).ok().status(old));

    // Within the grace period a later rotation keeps the expired key; after it, drops it.
    clock.set(activation.plus(Duration.ofHours(3)));
    assertFalse(run("rotate", "--in", p("keys.json"), "--grace", "1d").ok().out.contains("dropped"));
    assertTrue(keys(file("keys.json")).key(old).isPresent());
    clock.set(activation.plus(Duration.ofHours(2)).plus(Duration.ofDays(1)).plusSeconds(1));
    Result last = run("rotate", "--in", p("keys.json"), "--grace", "1d").ok();
    assertTrue(last.out.contains("dropped " + old), last.out);
    assertTrue(keys(file("keys.json")).key(old).isEmpty());
    assertTrue(run("list", "--in", p("keys.json")).ok().out.lines().noneMatch(l -> l.startsWith(old)));
  }

  @Test
  void keySetAfterRotationVerifiesATokenSignedBeforeIt() throws IOException {
    run("init", "--out", p("keys.json"), "--alg", "ES256").ok();
    String old = onlyKid(file("keys.json"));
    TokenCodec before = codec(keys(file("keys.json")));
    String token = before.encode(Claims.builder().subject("alice").build());

    clock.advance(Duration.ofMinutes(10));
    run("rotate", "--in", p("keys.json"), "--activate-in", "30m", "--max-token-lifetime", "1h").ok();
    clock.advance(Duration.ofMinutes(40)); // the new key signs now
    TokenCodec after = codec(keys(file("keys.json")));
    assertEquals(old, after.decode(token).keyId());
    assertEquals("alice", after.decode(token).subject().orElseThrow());
    String fresh = after.encode(Claims.builder().build());
    assertFalse(after.decode(fresh).keyId().equals(old), "new tokens use the new key");

    clock.set(T0.plus(Duration.ofMinutes(10 + 30 + 60))); // the old key has expired
    TokenCodec late = codec(keys(file("keys.json")));
    assertEquals(TokenException.Reason.UNKNOWN_KEY,
        assertThrows(TokenException.class, () -> late.decode(token)).reason());
  }

  TokenCodec codec(KeySet keys) {
    return TokenCodec.builder().keys(keys).algorithm(Algorithm.ES256).issuer("i").audience("a")
        .timeToLive(Duration.ofHours(1)).clock(clock).build();
  }

  @Test
  void secondRotationBeforeActivationAlsoRetiresThePendingKey() throws IOException {
    run("init", "--out", p("keys.json"), "--kid", "a", "--alg", "HS256").ok();
    run("rotate", "--in", p("keys.json"), "--kid", "b", "--activate-in", "24h").ok();
    clock.advance(Duration.ofHours(1));
    run("rotate", "--in", p("keys.json"), "--kid", "c", "--activate-in", "24h", "--max-token-lifetime", "1h").ok();
    KeySet k = keys(file("keys.json"));
    Instant cActivates = T0.plus(Duration.ofHours(25));
    assertEquals(cActivates, k.key("b").orElseThrow().retires().orElseThrow());
    assertEquals(T0.plus(Duration.ofHours(24)), k.key("a").orElseThrow().retires().orElseThrow(),
        "a already retires before c activates: unchanged");
    assertEquals("b", k.signingKey(Algorithm.HS256, T0.plus(Duration.ofHours(24))).orElseThrow().kid());
    assertEquals("c", k.signingKey(Algorithm.HS256, cActivates).orElseThrow().kid());
    assertTrue(k.key("b").orElseThrow().expires().isPresent(), "b does not verify forever");
  }

  @Test
  void rotateWithOutLeavesTheInputUntouchedAndKeepsTheAlgorithm() throws IOException {
    run("init", "--out", p("keys.json"), "--alg", "EdDSA").ok();
    String before = read(file("keys.json"));
    run("rotate", "--in", p("keys.json"), "--out", p("next.json")).ok();
    assertEquals(before, read(file("keys.json")));
    assertEquals(2, keys(file("next.json")).keys().size());
    assertTrue(keys(file("next.json")).keys().stream().allMatch(k -> k.algorithm() == Algorithm.EDDSA));
    assertEquals("rw-------", permissions(file("next.json")));
  }

  @Test
  void rotateTightensAFileThatWasReadableByOthers() throws IOException {
    run("init", "--out", p("keys.json")).ok();
    Files.setPosixFilePermissions(file("keys.json"), PosixFilePermissions.fromString("rw-r--r--"));
    Result r = run("rotate", "--in", p("keys.json")).ok();
    assertTrue(r.err.contains("readable by others"), r.err);
    assertEquals("rw-------", permissions(file("keys.json")));
  }

  @Test
  void rotateOfAnEncryptedFileStaysEncryptedWithTheSameSecret() throws IOException {
    run("init", "--out", p("keys.jwe"), "--encrypt", "--password-env", "PW", FAST).ok();
    run("rotate", "--in", p("keys.jwe"), "--password-env", "PW", FAST).ok();
    String content = read(file("keys.jwe"));
    assertTrue(EncryptedJwks.isEncrypted(content));
    assertEquals(2, EncryptedJwks.decrypt(content, PASSWORD.toCharArray()).keys().size());
    assertEquals("rw-------", permissions(file("keys.jwe")));

    run("init", "--out", p("kek.jwe"), "--encrypt", "--kek-env", "KEK").ok();
    run("rotate", "--in", p("kek.jwe"), "--kek-env", "KEK").ok();
    assertEquals(2, EncryptedJwks.decrypt(read(file("kek.jwe")), kek).keys().size());
  }

  @Test
  void rotateEncryptsAPlainFileOnlyWhenAsked() throws IOException {
    run("init", "--out", p("keys.json")).ok();
    assertOneLineError(run("rotate", "--in", p("keys.json"), "--kek-env", "KEK"), 2);
    run("rotate", "--in", p("keys.json"), "--kek-env", "KEK", "--encrypt").ok();
    assertEquals(2, EncryptedJwks.decrypt(read(file("keys.json")), kek).keys().size());
  }

  // ---- public -------------------------------------------------------------------------------

  @Test
  void publicPrintsOnlyUnexpiredAsymmetricKeysWithoutPrivateParts() throws IOException {
    TokenKey hs = TokenKey.generate("hs", Algorithm.HS256);
    TokenKey es = TokenKey.generate("es", Algorithm.ES256);
    TokenKey ed = TokenKey.generate("ed", Algorithm.EDDSA).withLifecycle(null, T0.plusSeconds(3600), null, null);
    TokenKey gone = TokenKey.generate("gone", Algorithm.ES256).withLifecycle(null, null, T0.minusSeconds(20), T0.minusSeconds(10));
    KeySet set = KeySet.of(hs, es, ed, gone);
    Files.writeString(file("keys.json"), set.toJwksWithSecrets());
    Files.setPosixFilePermissions(file("keys.json"), PosixFilePermissions.fromString("rw-------"));
    Result r = run("public", "--in", p("keys.json")).ok();
    KeySet published = KeySet.fromJwks(r.out.strip());
    assertEquals(Set.of("es", "ed"), published.keys().stream().map(TokenKey::kid).collect(Collectors.toSet()));
    assertTrue(published.keys().stream().noneMatch(TokenKey::canSign));
    for (String secret : secrets(set)) {
      assertFalse(r.out.contains(secret));
    }
    run("public", "--in", p("keys.json"), "--out", p("public.json")).ok();
    assertEquals("rw-r--r--", permissions(file("public.json")));
    assertEquals(2, keys(file("public.json")).keys().size());
  }

  @Test
  void publicOfSymmetricKeysIsEmptyWithANote() throws IOException {
    run("init", "--out", p("keys.json")).ok();
    Result r = run("public", "--in", p("keys.json")).ok();
    assertEquals("{\"keys\":[]}", r.out.strip());
    assertTrue(r.err.contains("no unexpired ES256 or EdDSA key"), r.err);
  }

  // ---- encrypt and decrypt ------------------------------------------------------------------

  @Test
  void encryptThenDecryptGivesBackTheSameKeys() throws IOException {
    run("init", "--out", p("keys.json"), "--alg", "ES256").ok();
    KeySet original = keys(file("keys.json"));
    run("encrypt", "--in", p("keys.json"), "--out", p("keys.jwe"), "--password-env", "PW", FAST).ok();
    assertTrue(EncryptedJwks.isEncrypted(read(file("keys.jwe"))));
    assertEquals("rw-------", permissions(file("keys.jwe")));
    Result d = run("decrypt", "--in", p("keys.jwe"), "--out", p("plain.json"), "--password-env", "PW").ok();
    assertTrue(d.err.contains("PLAIN"), "says it wrote plaintext: " + d.err);
    assertEquals("rw-------", permissions(file("plain.json")));
    TokenKey before = original.keys().get(0);
    assertTrue(before.sameAs(keys(file("plain.json")).key(before.kid()).orElseThrow()));
  }

  @Test
  void encryptInPlaceWithAKekAndReadItBack() throws IOException {
    run("init", "--out", p("keys.json")).ok();
    String kid = onlyKid(file("keys.json"));
    run("encrypt", "--in", p("keys.json"), "--kek-env", "KEK").ok();
    assertTrue(EncryptedJwks.isEncrypted(read(file("keys.json"))));
    assertEquals("SIGNING", run("list", "--in", p("keys.json"), "--kek-env", "KEK").ok().status(kid));
  }

  @Test
  void passwordFileLosesOneTrailingNewline() throws IOException {
    Files.writeString(file("pw.txt"), PASSWORD + "\n");
    run("init", "--out", p("keys.jwe"), "--encrypt", "--password-file", p("pw.txt"), FAST).ok();
    assertEquals(1, EncryptedJwks.decrypt(read(file("keys.jwe")), PASSWORD.toCharArray()).keys().size());
    run("list", "--in", p("keys.jwe"), "--password-env", "PW").ok();
  }

  @Test
  void decryptWithoutOutIsAUsageErrorAndWritesNothing() throws IOException {
    run("init", "--out", p("keys.jwe"), "--encrypt", "--kek-env", "KEK").ok();
    assertOneLineError(run("decrypt", "--in", p("keys.jwe"), "--kek-env", "KEK"), 2);
    try (Stream<Path> s = Files.list(dir)) {
      assertEquals(1, s.count());
    }
  }

  @Test
  void encryptingAnEncryptedFileOrDecryptingAPlainOneFails() throws IOException {
    run("init", "--out", p("keys.json")).ok();
    run("init", "--out", p("keys.jwe"), "--encrypt", "--kek-env", "KEK").ok();
    assertOneLineError(run("encrypt", "--in", p("keys.jwe"), "--kek-env", "KEK"), 1);
    assertOneLineError(run("decrypt", "--in", p("keys.json"), "--out", p("x.json"), "--kek-env", "KEK"), 1);
  }

  // ---- secrets stay out of output -----------------------------------------------------------

  @Test
  void listRotateAndErrorOutputNeverContainSecrets() throws IOException {
    KeySet set = KeySet.of(TokenKey.generate("hs", Algorithm.HS512), TokenKey.generate("es", Algorithm.ES256),
        TokenKey.generate("ed", Algorithm.EDDSA), TokenKey.generate("aes", Algorithm.DIR_A256GCM));
    Files.writeString(file("keys.json"), set.toJwksWithSecrets());
    Files.setPosixFilePermissions(file("keys.json"), PosixFilePermissions.fromString("rw-------"));
    List<Result> results = new ArrayList<>();
    results.add(run("list", "--in", p("keys.json")).ok());
    results.add(run("rotate", "--in", p("keys.json"), "--out", p("next.json"), "--alg", "HS512").ok());
    results.add(run("list", "--in", p("next.json")).ok());
    results.add(run("encrypt", "--in", p("keys.json"), "--out", p("keys.jwe"), "--password-env", "PW", FAST).ok());
    env.put("WRONG", "the wrong password");
    results.add(run("list", "--in", p("keys.jwe"), "--password-env", "WRONG"));
    results.add(run("decrypt", "--in", p("keys.jwe"), "--out", p("plain.json"), "--password-env", "PW").ok());
    Files.writeString(file("broken.json"), set.toJwksWithSecrets().replace("\"kty\":\"EC\"", "\"kty\":\"XX\""));
    results.add(run("list", "--in", p("broken.json")));
    Files.writeString(file("broken2.json"), set.toJwksWithSecrets().replace("]}", "],}"));
    results.add(run("list", "--in", p("broken2.json")));
    List<String> secrets = secrets(set);
    secrets.addAll(secrets(keys(file("next.json"))));
    for (Result r : results) {
      for (String s : secrets) {
        assertFalse(r.out.contains(s) || r.err.contains(s), "a secret leaked into the output");
      }
      assertFalse(r.out.contains(PASSWORD) || r.err.contains(PASSWORD));
      assertFalse(r.err.contains("the wrong password"));
    }
    assertEquals(1, results.get(4).code);
    assertEquals(1, results.get(6).code);
    assertEquals(1, results.get(7).code);
  }

  // ---- help and bad input -------------------------------------------------------------------

  @Test
  void everyCommandHasHelp() {
    for (String cmd : new String[] {"init", "rotate", "list", "public", "encrypt", "decrypt"}) {
      for (String flag : new String[] {"--help", "-h"}) {
        Result r = run(cmd, flag).ok();
        assertTrue(r.out.startsWith("Usage: keyring " + cmd + " "), r.out);
        assertEquals("", r.err);
      }
    }
    Result top = run("--help").ok();
    assertTrue(top.out.startsWith("Usage: keyring COMMAND"));
    for (String cmd : new String[] {"init", "rotate", "list", "public", "encrypt", "decrypt"}) {
      assertTrue(top.out.contains("  " + cmd + " "), cmd);
    }
  }

  @Test
  void badCommandLinesAreUsageErrorsOnOneLine() throws IOException {
    run("init", "--out", p("keys.json")).ok();
    String k = p("keys.json");
    String[][] usage = {
        {},
        {"bogus"},
        {"list", "--bogus"},
        {"list", "--in"},
        {"list", "--in", k, "--in", k},
        {"list", k},
        {"list"},
        {"init"},
        {"init", "--out", p("x.json"), "--alg", "RS256"},
        {"init", "--out", p("x.json"), "--kid", "has space"},
        {"init", "--out", p("x.json"), "--password-env", "PW"},
        {"init", "--out", p("x.json"), "--encrypt"},
        {"init", "--out", p("x.json"), "--encrypt", "--password-env", "PW", "--kek-env", "KEK"},
        {"init", "--out", p("x.json"), "--encrypt", "--password-env", "PW", "--iterations", "99"},
        {"init", "--out", p("x.json"), "--encrypt", "--password-env", "PW", "--iterations", "many"},
        {"init", "--out", p("x.json"), "--force=yes"},
        {"init", "--out", "--force"},
        {"init", "--in", k},
        {"rotate", "--in", k, "--activate-in", "tomorrow"},
        {"rotate", "--in", k, "--activate-in", "-1h"},
        {"rotate", "--in", k, "--max-token-lifetime", "24"},
        {"list", "--in", k, "--max-iterations", "10"},
        {"encrypt", "--in", k},
        {"encrypt", "--in", k, "--max-iterations", "5000"},
        {"decrypt", "--in", k, "--kek-env", "KEK"},
        {"public", "--in", k, "--encrypt"},
    };
    for (String[] args : usage) {
      Result r = run(args);
      assertOneLineError(r, 2);
      assertTrue(r.err.contains("--help"), String.join(" ", args) + ": " + r.err);
    }
    assertFalse(Files.exists(file("x.json")), "no usage error wrote a file");
  }

  @Test
  void failuresExitWithOneOnOneLine() throws IOException {
    run("init", "--out", p("keys.json")).ok();
    run("init", "--out", p("keys.jwe"), "--encrypt", "--password-env", "PW", FAST).ok();
    Files.writeString(file("garbage.json"), "{\"keys\": 5}");
    Files.writeString(file("text.txt"), "hello");
    env.put("WRONG", "not the password at all");
    env.put("SHORT", "short");
    env.put("BADKEK", "not base64!");
    env.put("SMALLKEK", Base64.getUrlEncoder().encodeToString(new byte[16]));
    String[][] failures = {
        {"list", "--in", p("absent.json")},
        {"list", "--in", dir.toString()},
        {"list", "--in", p("garbage.json")},
        {"list", "--in", p("text.txt")},
        {"list", "--in", p("keys.jwe")},
        {"list", "--in", p("keys.jwe"), "--password-env", "WRONG"},
        {"list", "--in", p("keys.jwe"), "--password-env", "UNSET"},
        {"list", "--in", p("keys.jwe"), "--password-file", p("absent.txt")},
        {"list", "--in", p("keys.jwe"), "--kek-env", "KEK"},
        {"list", "--in", p("keys.jwe"), "--password-env", "PW", "--max-iterations", "50000"},
        {"init", "--out", p("x.jwe"), "--encrypt", "--password-env", "SHORT"},
        {"init", "--out", p("x.jwe"), "--encrypt", "--kek-env", "BADKEK"},
        {"init", "--out", p("x.jwe"), "--encrypt", "--kek-env", "SMALLKEK"},
        {"init", "--out", p("no/such/dir/x.json")},
        {"rotate", "--in", p("absent.json")},
        {"rotate", "--in", p("keys.json"), "--kid", onlyKid(file("keys.json"))},
        {"public", "--in", p("garbage.json")},
        {"encrypt", "--in", p("absent.json"), "--kek-env", "KEK"},
        {"decrypt", "--in", p("keys.jwe"), "--out", p("plain.json"), "--password-env", "WRONG"},
    };
    for (String[] args : failures) {
      Result r = run(args);
      assertEquals(1, r.code, () -> String.join(" ", args) + ": " + r.err);
      assertOneLineError(r, 1);
      assertTrue(r.err.startsWith("keyring: error: "), r.err);
    }
    assertFalse(Files.exists(file("x.jwe")));
    assertFalse(Files.exists(file("plain.json")));
  }

  @Test
  void wrongPasswordSaysSo() throws IOException {
    run("init", "--out", p("keys.jwe"), "--encrypt", "--password-env", "PW", FAST).ok();
    env.put("WRONG", "not the password at all");
    Result r = run("list", "--in", p("keys.jwe"), "--password-env", "WRONG");
    assertOneLineError(r, 1);
    assertTrue(r.err.contains("does not decrypt"), r.err);
  }

  // ---- durations ----------------------------------------------------------------------------

  @Test
  void durationsReadCompactAndIsoForms() {
    assertEquals(Duration.ofMinutes(30), Durations.parse("--x", "30m"));
    assertEquals(Duration.ofHours(24), Durations.parse("--x", "24h"));
    assertEquals(Duration.ofDays(7), Durations.parse("--x", "7d"));
    assertEquals(Duration.ofMinutes(90), Durations.parse("--x", "1h30m"));
    assertEquals(Duration.ofSeconds(45), Durations.parse("--x", "45s"));
    assertEquals(Duration.ofHours(2), Durations.parse("--x", "PT2H"));
    assertEquals(Duration.ZERO, Durations.parse("--x", "0s"));
    for (String bad : new String[] {"", "24", "h", "1.5h", "1w", "-1h", "PT-1H", "P", "1h 30m"}) {
      assertThrows(UsageException.class, () -> Durations.parse("--x", bad), bad);
    }
  }
}
