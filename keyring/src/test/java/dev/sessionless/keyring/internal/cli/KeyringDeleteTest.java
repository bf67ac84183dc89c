package dev.sessionless.keyring.internal.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.EncryptedJwks;
import dev.sessionless.testing.FakeClock;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code keyring list}'s SAFE-TO-DELETE column and {@code keyring delete}, which refuses an unsafe delete. */
class KeyringDeleteTest {
  static final Instant T0 = Instant.parse("2026-11-01T00:00:00Z");
  @TempDir Path dir;
  final FakeClock clock = new FakeClock(T0);
  final Map<String, String> env = new HashMap<>(Map.of("PW", "a long enough password"));

  record Result(int code, String out, String err) {
    String column(String kid, int i) {
      return out.lines().filter(l -> l.startsWith(kid + " ")).findFirst().map(l -> l.trim().split("\\s+")[i])
          .orElseThrow(() -> new AssertionError("no row for " + kid + " in\n" + out));
    }
  }

  Result run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = KeyringCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), env, clock);
    return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  Result ok(String... args) {
    Result r = run(args);
    assertEquals(0, r.code, () -> "exit 0 expected; stderr: " + r.err);
    return r;
  }

  String p(String name) {
    return dir.resolve(name).toString();
  }

  /** init at T0 (kid "old"), rotate an hour later: "new" signs from T0+25h, "old" retires then and expires 2h later. */
  void rotated(String file, String... secret) {
    String[] init = {"init", "--out", p(file), "--kid", "old", "--alg", "HS256"};
    String[] rotate = {"rotate", "--in", p(file), "--kid", "new", "--activate-in", "24h", "--max-token-lifetime", "2h"};
    ok(concat(init, secret));
    clock.advance(Duration.ofHours(1));
    ok(concat(rotate, secret));
  }

  static String[] concat(String[] a, String[] b) {
    String[] r = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }

  KeySet keys(String file) throws IOException {
    return KeySet.fromJwks(Files.readString(dir.resolve(file)));
  }

  @Test
  void listShowsFromWhenEachKeyIsSafeToDelete() {
    rotated("keys.json");
    Instant oldExpires = T0.plus(Duration.ofHours(27));
    Result list = ok("list", "--in", p("keys.json"));
    assertTrue(list.out.contains("SAFE-TO-DELETE"), list.out);
    assertEquals(oldExpires.toString(), list.column("old", 7), "a rotated key: its expiry");
    assertEquals("never", list.column("new", 7), "a key with no retirement never is");
    clock.set(oldExpires);
    assertEquals("yes", ok("list", "--in", p("keys.json")).column("old", 7));
  }

  @Test
  void deletingAKeyWhoseTokensMayStillBeValidIsRefusedAndChangesNothing() throws IOException {
    rotated("keys.json");
    String before = Files.readString(dir.resolve("keys.json"));
    Result r = run("delete", "--in", p("keys.json"), "--kid", "old");
    assertEquals(1, r.code);
    assertTrue(r.err.startsWith("keyring: error: refusing to delete old: tokens it signed may be valid until "
        + T0.plus(Duration.ofHours(27))), r.err);
    assertTrue(r.err.contains("--force"), r.err);
    assertEquals(before, Files.readString(dir.resolve("keys.json")));

    Result never = run("delete", "--in", p("keys.json"), "--kid", "new");
    assertEquals(1, never.code);
    assertTrue(never.err.contains("no retirement or expiry"), never.err);
  }

  @Test
  void aKeyPastItsLastValidTokenIsDeleted() throws IOException {
    rotated("keys.json");
    clock.set(T0.plus(Duration.ofHours(27)));
    Result r = ok("delete", "--in", p("keys.json"), "--kid", "old");
    assertTrue(r.out.startsWith("deleted old (HS256), safe to delete since " + T0.plus(Duration.ofHours(27))), r.out);
    assertTrue(keys("keys.json").key("old").isEmpty());
    assertTrue(keys("keys.json").key("new").isPresent());
  }

  @Test
  void forceDeletesAnUnsafeKeyWithAWarning() throws IOException {
    rotated("keys.json");
    Result r = ok("delete", "--in", p("keys.json"), "--kid", "old", "--force");
    assertTrue(r.err.contains("warning: deleting old although"), r.err);
    assertTrue(keys("keys.json").key("old").isEmpty());
  }

  @Test
  void aLongerTokenLifetimeMovesTheSafeInstantOnlyUpToTheKeysExpiry() {
    rotated("keys.json");
    // old retires T0+25h, expires T0+27h: 1h lifetime + 10m skew ends before the expiry.
    clock.set(T0.plus(Duration.ofHours(26)).plus(Duration.ofMinutes(10)));
    assertEquals("yes", ok("list", "--in", p("keys.json"), "--max-token-lifetime", "1h").column("old", 7));
    assertEquals(T0.plus(Duration.ofHours(27)).toString(), ok("list", "--in", p("keys.json")).column("old", 7));
  }

  @Test
  void deleteKeepsAnEncryptedFileEncrypted() throws IOException {
    rotated("keys.jwe", "--encrypt", "--password-env", "PW", "--iterations=100000");
    clock.set(T0.plus(Duration.ofHours(28)));
    ok("delete", "--in", p("keys.jwe"), "--kid", "old", "--password-env", "PW");
    String content = Files.readString(dir.resolve("keys.jwe"));
    assertTrue(EncryptedJwks.isEncrypted(content));
    assertEquals(1, EncryptedJwks.decrypt(content, "a long enough password".toCharArray()).keys().size());
  }

  @Test
  void deletingAnUnknownKidFailsClearly() {
    rotated("keys.json");
    Result r = run("delete", "--in", p("keys.json"), "--kid", "nope");
    assertEquals(1, r.code);
    assertTrue(r.err.startsWith("keyring: error: there is no key nope in "), r.err);
    assertEquals(2, run("delete", "--in", p("keys.json")).code, "--kid is required");
  }

  @Test
  void keyIdsOnlyNeverSecretsAppearInTheOutput() throws IOException {
    rotated("keys.json");
    KeySet keys = keys("keys.json");
    clock.set(T0.plus(Duration.ofHours(28)));
    Result r = ok("delete", "--in", p("keys.json"), "--kid", "old");
    for (TokenKey k : keys.keys()) {
      String jwk = k.toJwkWithSecrets();
      String secret = jwk.replaceAll(".*\"k\":\"([^\"]+)\".*", "$1");
      assertTrue(!r.out.contains(secret) && !r.err.contains(secret));
    }
  }
}
