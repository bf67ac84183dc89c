package dev.sessionless.keyring.internal.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the shaded {@code target/keyring.jar} as a real subprocess. Failsafe runs this after
 * {@code package}, so a missing jar is a failure, never a skip.
 */
class KeyringJarIT {
  static final Path JAR = Path.of("target", "keyring.jar");

  @TempDir Path dir;

  record Run(int code, String out, String err) {}

  static Run java(Map<String, String> env, String... args) throws IOException, InterruptedException {
    assertTrue(Files.isRegularFile(JAR), JAR.toAbsolutePath() + " must exist: mvn package builds it");
    List<String> cmd = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", JAR.toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().putAll(env);
    Process p = pb.start();
    p.getOutputStream().close();
    // Outputs are small; read stderr fully after stdout (a few KiB fit in the pipe buffer).
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    return new Run(p.waitFor(), out, err);
  }

  @Test
  void jarPrintsHelpAndExitsZero() throws Exception {
    Run r = java(Map.of(), "--help");
    assertEquals(0, r.code, r.err);
    assertTrue(r.out.startsWith("Usage: keyring COMMAND"), r.out);
    Run rotateHelp = java(Map.of(), "rotate", "--help");
    assertEquals(0, rotateHelp.code);
    assertTrue(rotateHelp.out.startsWith("Usage: keyring rotate"));
  }

  @Test
  void jarInitsAnEncryptedKeyFileAndListsOneSigningKey() throws Exception {
    byte[] kek = new byte[32];
    new SecureRandom().nextBytes(kek);
    Map<String, String> env = Map.of("KEK", Base64.getUrlEncoder().withoutPadding().encodeToString(kek));
    Path keys = dir.resolve("keys.jwe");
    Run init = java(env, "init", "--out", keys.toString(), "--alg", "EdDSA", "--encrypt", "--kek-env", "KEK");
    assertEquals(0, init.code, init.err);
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(keys)));
    Run list = java(env, "list", "--in", keys.toString(), "--kek-env", "KEK");
    assertEquals(0, list.code, list.err);
    assertEquals(1, list.out.lines().filter(l -> l.contains(" EdDSA ") && l.contains(" SIGNING ")).count(), list.out);
  }

  @Test
  void jarSignsARevocationListThatPublishedRevocationsReadsBack() throws Exception {
    Path keys = dir.resolve("keys.jwks");
    Path list = dir.resolve("list.json");
    Path signed = dir.resolve("revocations.jwt");
    assertEquals(0, java(Map.of(), "init", "--out", keys.toString(), "--alg", "ES256").code);
    java.time.Instant until = java.time.Instant.now().plusSeconds(3600).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
    Files.writeString(list, "{\"sessions\": {\"s-stolen\": \"" + until + "\"}}");
    Run r = java(Map.of(), "revocations", "--in", keys.toString(), "--list", list.toString(), "--out",
        signed.toString(), "--issuer", "https://auth.example", "--audience", "nodes");
    assertEquals(0, r.code, r.err);
    // A node reads it with only the public keys (as `keyring public` writes them).
    Path pub = dir.resolve("public.jwks");
    assertEquals(0, java(Map.of(), "public", "--in", keys.toString(), "--out", pub.toString()).code);
    try (dev.sessionless.keyring.PublishedRevocations read = dev.sessionless.keyring.PublishedRevocations.builder()
        .file(signed).keys(dev.sessionless.core.KeySet.fromJwks(Files.readString(pub)))
        .issuer("https://auth.example").audience("nodes").build()) {
      assertTrue(read.isRevoked("s-stolen"));
      assertFalse(read.isRevoked("s-other"));
    }
  }

  @Test
  void jarReportsBadInputOnOneLineWithoutStackTrace() throws Exception {
    Run missing = java(Map.of(), "list", "--in", dir.resolve("absent.json").toString());
    assertEquals(1, missing.code);
    assertEquals(1, missing.err.lines().count(), missing.err);
    assertFalse(missing.err.contains("Exception"), missing.err);
    Run usage = java(Map.of(), "frobnicate");
    assertEquals(2, usage.code);
    assertEquals(1, usage.err.lines().count(), usage.err);
  }

  @Test
  void shadedJarHasAMainClassAndNoSignaturesWhileTheLibraryJarStaysPlain() throws Exception {
    try (JarFile jar = new JarFile(JAR.toFile())) {
      assertEquals(KeyringCli.class.getName(), jar.getManifest().getMainAttributes().getValue("Main-Class"));
      assertTrue(jar.stream().noneMatch(e -> e.getName().matches("META-INF/[^/]+\\.(SF|DSA|RSA|EC)")));
      assertTrue(jar.stream().noneMatch(e -> e.getName().endsWith("module-info.class")));
    }
    Path library;
    try (Stream<Path> s = Files.list(Path.of("target"))) {
      library = s.filter(f -> f.getFileName().toString().matches("sessionless-keyring-.*\\.jar"))
          .filter(f -> !f.getFileName().toString().contains("sources"))
          .findFirst().orElseThrow();
    }
    try (JarFile jar = new JarFile(library.toFile())) {
      assertNull(jar.getManifest().getMainAttributes().getValue("Main-Class"));
      assertTrue(jar.getEntry("module-info.class") != null, "the library jar is a module");
      assertTrue(jar.stream().noneMatch(e -> e.getName().startsWith("org/bouncycastle/")));
    }
  }
}
