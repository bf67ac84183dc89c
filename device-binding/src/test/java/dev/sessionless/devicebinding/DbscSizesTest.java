package dev.sessionless.devicebinding;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.devicebinding.Challenge.Purpose;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The sizes the README quotes (printed, and bounded so that a change that grows them is seen):
 * challenge, registration header, proofs, and the long-lived token of the test node with each
 * key type.
 */
@Timeout(60)
class DbscSizesTest {
  @Test
  void sizesStayWithinTheReadmesFigures() {
    KeySet keys = KeySet.of(TokenKey.generate("app-1", Algorithm.HS256));
    DbscNode node = new DbscNode(keys, Clock.systemUTC());
    String challenge = node.challenges.issue(Purpose.REFRESH, "dbsc-login-1");
    String registration = node.registrationHeader("login-1", null);
    report("challenge (HS256)", challenge.length(), 380);
    report("Secure-Session-Registration", registration.length(), 420);
    for (String alg : new String[] {"ES256", "RS256"}) {
      SimulatedBrowser b = new SimulatedBrowser(alg, Clock.systemUTC());
      String proof = b.register(registration, null);
      report(alg + " registration proof", proof.length(), alg.equals("ES256") ? 850 : 1450);
      DbscNode.Answer a = node.register(proof, "login-1", null);
      report(alg + " long-lived token (cnf.jkt + cnf.jwk, last refresh)", a.longLivedToken().length(),
          alg.equals("ES256") ? 600 : 950);
      b.accept(a.instructions());
      b.takeChallenge(DbscHeaders.challenge(challenge, b.sessionId));
      report(alg + " refresh proof", b.refreshProof(null).length(), alg.equals("ES256") ? 680 : 950);
    }
  }

  private static void report(String what, int chars, int bound) {
    System.out.println("[dbsc-size] " + what + ": " + chars + " characters");
    assertTrue(chars <= bound, what + " is " + chars + " characters, over " + bound);
  }
}
