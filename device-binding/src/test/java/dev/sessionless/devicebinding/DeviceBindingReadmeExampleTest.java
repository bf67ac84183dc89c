package dev.sessionless.devicebinding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.devicebinding.Challenge.Purpose;
import dev.sessionless.testing.ReadmeBlocks;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Keeps the README's example compiling and true: the code between the markers is the README's. */
@Timeout(60)
class DeviceBindingReadmeExampleTest {
  @Test
  void readmeExampleRegistersAndRefreshesASimulatedBrowser() {
    KeySet appKeys = KeySet.of(TokenKey.generate("app-1", Algorithm.HS256));
    String loginSessionId = "login-42";
    SimulatedBrowser browser = new SimulatedBrowser("ES256", java.time.Clock.systemUTC());
    // readme-example:start
    Challenges challenges = Challenges.builder()
        .keys(appKeys)                                   // keys the application already holds
        .issuer("https://shop.example")
        .build();
    DeviceProof proofs = DeviceProof.verifier(challenges).build();

    // 1. On the login response: offer registration.
    String registration = DbscHeaders.registration()
        .path("/dbsc/register")
        .challenge(challenges.issue(Purpose.REGISTRATION, loginSessionId))
        .build();                                        // Secure-Session-Registration: (ES256 RS256);path=...

    // 2. At /dbsc/register: verify the proof, bind the session to its key, answer the instructions.
    String responseHeader = browser.register(registration, null);  // the browser's Secure-Session-Response
    VerifiedProof registered = proofs.verifyRegistration(
        DbscHeaders.readProof(responseHeader), loginSessionId, null, null);
    DeviceKey deviceKey = registered.key();              // keep toJwk() and thumbprint() in the long-lived token
    String instructions = SessionConfiguration.builder("s-42")
        .refreshUrl("/dbsc/refresh")
        .scope("https://shop.example", false)
        .cookie("sl_bound", "Path=/; Secure; HttpOnly; SameSite=Lax")
        .toJson();

    // 3. At /dbsc/refresh: challenge (403), then verify the proof against the session's key.
    String challenge = DbscHeaders.challenge(challenges.issue(Purpose.REFRESH, "s-42"), "s-42");
    Instant lastRefresh = Instant.EPOCH;                 // from the long-lived token
    // ... the browser answers with a Secure-Session-Response header ...
    // readme-example:end
    browser.accept(instructions);
    browser.takeChallenge(challenge);
    String refreshHeader = browser.refreshProof(null);
    // readme-example-refresh:start
    VerifiedProof refreshed = proofs.verifyRefresh(
        DbscHeaders.readProof(refreshHeader), "s-42", deviceKey, lastRefresh, null);
    Instant newLastRefresh = refreshed.challenge().issuedAt();  // into the new long-lived token
    // readme-example-refresh:end
    assertEquals("s-42", browser.sessionId);
    assertEquals(deviceKey, refreshed.key());
    assertTrue(newLastRefresh.isAfter(lastRefresh));
    assertTrue(registration.startsWith("(ES256 RS256);path=\"/dbsc/register\";challenge=\""));
    assertTrue(Duration.between(Instant.now(), refreshed.challenge().expiresAt()).toSeconds() <= 120);
  }

  @Test
  void readmeShowsExactlyTheCodeThisTestRuns() throws IOException {
    Path self = Path.of("src/test/java/dev/sessionless/devicebinding/DeviceBindingReadmeExampleTest.java");
    // The servlet blocks are the loopback tests' own wiring.
    Path node = Path.of("src/test/java/dev/sessionless/devicebinding/servlet/DbscJettyNode.java");
    // The WebFlux blocks are the Reactor Netty tests' own wiring.
    Path nettyNode = Path.of("src/test/java/dev/sessionless/devicebinding/webflux/DbscNettyNode.java");
    for (String block : List.of("readme-example", "readme-example-refresh", "readme-servlet", "readme-login",
        "readme-webflux", "readme-webflux-login")) {
      List<String> shown = ReadmeBlocks.markdown(Path.of("README.md"), block);
      assertFalse(shown.isEmpty(), "README.md has no " + block + " block");
      Path source = block.startsWith("readme-example") ? self : block.startsWith("readme-webflux") ? nettyNode : node;
      assertEquals(ReadmeBlocks.java(source, block), shown, "README.md drifted from " + source + " (" + block + ")");
    }
  }
}
