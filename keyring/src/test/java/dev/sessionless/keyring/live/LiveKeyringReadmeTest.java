package dev.sessionless.keyring.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.testing.ReadmeBlocks;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Keeps the README's live-keyring example compiling and true, and pins the keyring's public surface. */
class LiveKeyringReadmeTest {
  @Test
  void readmeExampleRuns(@TempDir Path secretsDir) throws Exception {
    Files.writeString(secretsDir.resolve("session-keys.jwks"),
        KeySet.of(TokenKey.generate("2026-11", Algorithm.HS256)).toJwksWithSecrets());
    HttpServer partner = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    byte[] jwks = KeySet.of(TokenKey.generate("partner-1", Algorithm.ES256)).toPublicJwks()
        .getBytes(StandardCharsets.UTF_8);
    partner.createContext("/jwks", ex -> {
      ex.sendResponseHeaders(200, jwks.length);
      try (OutputStream out = ex.getResponseBody()) {
        out.write(jwks);
      }
    });
    partner.start();
    URI partnerJwks = URI.create("http://127.0.0.1:" + partner.getAddress().getPort() + "/jwks");
    PrintStream stdout = System.out;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
    try {
      // live-keyring-example:start
      try (Keyring keys = Keyring.builder()
          .jwksFile(secretsDir.resolve("session-keys.jwks"))  // signing keys, reloaded on change
          .jwksUrl(partnerJwks)                                // a partner's public keys, verify only
          .build()) {
        TokenCodec codec = TokenCodec.builder().keys(keys).issuer("https://shop.example")
            .audience("shop").timeToLive(Duration.ofMinutes(30)).build();
        String token = codec.encode(Claims.builder().put("cart", List.of("mug")).build());
        System.out.println(keys.status().signingKeyIds() + " " + codec.decode(token).keyId());
      }
      // live-keyring-example:end
    } finally {
      System.setOut(stdout);
      partner.stop(0);
    }
    assertEquals("{HS256=2026-11} 2026-11", printed.toString(StandardCharsets.UTF_8).strip(),
        "the file's key signs; the partner's public key only verifies");
  }

  @Test
  void readmeShowsExactlyTheCodeThisTestRuns() throws IOException {
    List<String> tested = ReadmeBlocks.java(
        Path.of("src/test/java/dev/sessionless/keyring/live/LiveKeyringReadmeTest.java"), "live-keyring-example");
    List<String> shown = ReadmeBlocks.markdown(Path.of("README.md"), "live-keyring-example");
    assertFalse(shown.isEmpty(), "README.md has no live-keyring-example block");
    assertEquals(tested, shown, "README.md drifted from LiveKeyringReadmeTest");
  }

  @Test
  void keyringExposesNoDependencyTypes() {
    for (Class<?> c : Keyring.class.getDeclaredClasses()) {
      check(c);
    }
    check(Keyring.class);
  }

  private static void check(Class<?> c) {
    if (!Modifier.isPublic(c.getModifiers())) {
      return;
    }
    for (Method m : c.getDeclaredMethods()) {
      if (!Modifier.isPublic(m.getModifiers())) {
        continue;
      }
      for (Class<?> p : m.getParameterTypes()) {
        assertTrue(allowed(p), c.getSimpleName() + "." + m.getName() + " takes " + p.getName());
      }
      assertTrue(allowed(m.getReturnType()), c.getSimpleName() + "." + m.getName() + " returns " + m.getReturnType());
    }
  }

  private static boolean allowed(Class<?> t) {
    Class<?> c = t.isArray() ? t.getComponentType() : t;
    String n = c.getName();
    return c.isPrimitive() || n.startsWith("java.") || n.startsWith("dev.sessionless.core.")
        || (n.startsWith("dev.sessionless.keyring.") && !n.contains(".internal."));
  }
}
