package dev.sessionless.keyring.internal.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.KeySet;
import dev.sessionless.keyring.KeyringException;
import dev.sessionless.keyring.PublishedRevocations;
import dev.sessionless.testing.FakeClock;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code keyring revocations}: a list signed from a JSON file is what {@link
 * PublishedRevocations} reads back (with the nodes' keys, issuer and audience), and bad input is
 * one line and exit 1 or 2, never a list.
 */
class KeyringRevocationsTest {
  static final Instant T0 = Instant.parse("2026-11-23T12:00:00Z");
  @TempDir Path dir;
  final FakeClock clock = new FakeClock(T0);
  final Map<String, String> env = new HashMap<>();

  record Result(int code, String out, String err) {}

  Result run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = KeyringCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), env, clock);
    return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  String p(String name) {
    return dir.resolve(name).toString();
  }

  Result sign(String list, String... more) throws Exception {
    Files.writeString(dir.resolve("list.json"), list);
    String[] base = {"revocations", "--in", p("keys.jwks"), "--list", p("list.json"), "--out", p("list.jwt"),
        "--issuer", "https://auth.example", "--audience", "shop-nodes"};
    String[] args = new String[base.length + more.length];
    System.arraycopy(base, 0, args, 0, base.length);
    System.arraycopy(more, 0, args, base.length, more.length);
    return run(args);
  }

  PublishedRevocations reader() throws Exception {
    return PublishedRevocations.builder().file(dir.resolve("list.jwt"))
        .keys(KeySet.fromJwks(Files.readString(dir.resolve("keys.jwks"))))
        .issuer("https://auth.example").audience("shop-nodes").clock(clock).build();
  }

  @Test
  void aSignedListIsReadBackByPublishedRevocations() throws Exception {
    assertEquals(0, run("init", "--out", p("keys.jwks"), "--alg", "EdDSA", "--kid", "lists").code);
    Result r = sign("{\"sessions\": {\"s-stolen\": \"2026-11-23T13:00:00Z\", \"s-old\": \"2026-11-23T11:00:00Z\"},"
        + " \"subjects\": {\"alice\": {\"notBefore\": \"2026-11-23T11:59:00Z\", \"until\": \"2026-11-24T00:00:00Z\"}}}");
    assertEquals(0, r.code, r.err);
    assertTrue(r.out.contains("signed 1 session(s) and 1 subject(s) with lists (EdDSA), 1 past their until left out"),
        r.out);
    assertTrue(r.out.contains("valid until 2026-11-23T12:05:00Z"), r.out);
    assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("list.jwt"))));
    try (PublishedRevocations read = reader()) {
      assertTrue(read.isRevoked("s-stolen"));
      assertFalse(read.isRevoked("s-old"), "expired entries are left out");
      assertFalse(read.isRevoked("s-other"));
      assertEquals(Instant.parse("2026-11-23T11:59:00Z"), read.notBefore("alice").orElseThrow());
      assertTrue(read.notBefore("bob").isEmpty());
      assertEquals(T0.plus(Duration.ofMinutes(5)), read.expiresAt());
    }
  }

  @Test
  void aListSignedWithAnotherKeySetIsRefusedByTheReaders() throws Exception {
    assertEquals(0, run("init", "--out", p("other.jwks"), "--alg", "ES256").code);
    assertEquals(0, run("init", "--out", p("keys.jwks"), "--alg", "ES256").code);
    Files.writeString(dir.resolve("list.json"), "{\"sessions\": {\"s\": \"2026-11-23T13:00:00Z\"}}");
    Result r = run("revocations", "--in", p("other.jwks"), "--list", p("list.json"), "--out", p("list.jwt"),
        "--issuer", "https://auth.example", "--audience", "shop-nodes");
    assertEquals(0, r.code, r.err);
    KeyringException e = org.junit.jupiter.api.Assertions.assertThrows(KeyringException.class, this::reader);
    assertEquals(KeyringException.Reason.MALFORMED, e.reason());
    assertTrue(e.getMessage().contains("the revocation list was refused"), e.getMessage());
  }

  @Test
  void signsWithTheNamedKeyOnlyIfItSignsNow() throws Exception {
    assertEquals(0, run("init", "--out", p("keys.jwks"), "--kid", "first", "--alg", "HS256").code);
    clock.advance(Duration.ofHours(1));
    assertEquals(0, run("rotate", "--in", p("keys.jwks"), "--kid", "second", "--activate-in", "1h").code);
    String list = "{\"sessions\": {\"s\": \"2026-11-23T20:00:00Z\"}}";
    Result pending = sign(list, "--kid", "second");
    assertEquals(1, pending.code);
    assertTrue(pending.err.contains("key second does not sign now"), pending.err);
    assertFalse(Files.exists(dir.resolve("list.jwt")), "nothing written");
    Result r = sign(list, "--kid", "first");
    assertEquals(0, r.code, r.err);
    assertTrue(r.out.contains("with first (HS256)"), r.out);
    try (PublishedRevocations read = reader()) {
      assertTrue(read.isRevoked("s"));
    }
  }

  @Test
  void badListsAndOptionsAreOneLineErrorsAndWriteNothing() throws Exception {
    assertEquals(0, run("init", "--out", p("keys.jwks"), "--alg", "HS256").code);
    String[][] lists = {
        {"[]", "must be a JSON object"},
        {"{\"sessions\": {\"s\": \"tomorrow\"}}", "sessions.s is not an ISO-8601 instant"},
        {"{\"sessions\": {\"s\": 1795000000}}", "sessions.s must be an ISO-8601 instant"},
        {"{\"sessions\": {\"s\": \"2026-11-23T13:00:00Z\", \"s\": \"2026-11-23T14:00:00Z\"}}", "not JSON (or a member is repeated)"},
        {"{\"revoked\": {}}", "unknown member \"revoked\""},
        {"{\"subjects\": {\"alice\": {\"notBefore\": \"2026-11-23T13:00:00Z\"}}}", "subjects.alice must be"},
        {"{\"subjects\": {\"alice\": {\"notBefore\": \"2026-11-23T13:00:00Z\", \"until\": \"2026-11-23T12:00:00Z\"}}}",
            "until is before its notBefore"},
        {"{\"sessions\": {}} trailing", "not JSON"}};
    for (String[] c : lists) {
      Result r = sign(c[0]);
      assertEquals(1, r.code, c[0] + " -> " + r.err);
      assertEquals(1, r.err.lines().count(), r.err);
      assertTrue(r.err.contains(c[1]), c[0] + " -> " + r.err);
      assertFalse(Files.exists(dir.resolve("list.jwt")));
    }
    Result noIssuer = run("revocations", "--in", p("keys.jwks"), "--list", p("list.json"), "--out", p("x"),
        "--audience", "a");
    assertEquals(2, noIssuer.code);
    assertTrue(noIssuer.err.contains("revocations needs --issuer"), noIssuer.err);
    Result fraction = sign("{}", "--valid-for", "PT0.5S");
    assertEquals(2, fraction.code, fraction.err);
  }
}
