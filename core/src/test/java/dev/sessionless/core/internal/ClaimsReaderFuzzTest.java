package dev.sessionless.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sessionless.core.TokenException;
import dev.sessionless.testing.FuzzSeeds;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Coverage-guided fuzzing (Jazzer) of the hand-written JSON readers on the hot path, each
 * differential against Jackson with the harness of its seeded differential test: the claims
 * reader ({@link FastClaims}, {@link FastClaimsDifferentialTest#agree(byte[])}) and the state
 * scanner ({@link StateScanner}, {@link StateScannerDifferentialTest#agree(byte[])}). Whatever a
 * fast path accepts, Jackson must accept and read the same way; neither may throw anything but
 * the documented {@link TokenException}.
 *
 * <p>Inputs that are not UTF-8 never reach these readers (the codec refuses them first); they
 * are still given to the fast paths, which must not throw on them. Saved inputs live under
 * {@code src/test/resources/dev/sessionless/core/internal/ClaimsReaderFuzzTestInputs/<method>/}.
 */
@Timeout(120)
class ClaimsReaderFuzzTest {

  /** A token payload: the fast claims reader agrees with the Jackson reader. */
  @FuzzTest(maxDuration = "5m")
  void fastClaimsReaderAgreesWithJackson(byte[] payload) {
    if (!Utf8.isValid(payload, 0, payload.length)) {
      FastClaims.tryRead(payload, payload.length, FastClaimsDifferentialTest.EXPECTED, new ParsedClaims());
      return;
    }
    FastClaimsDifferentialTest.agree(payload);
  }

  /** A session state object: the scanner's index is the Jackson index, or it hands over. */
  @FuzzTest(maxDuration = "5m")
  void stateScannerAgreesWithJackson(byte[] state) {
    if (state.length == 0 || !Utf8.isValid(state, 0, state.length)) {
      StateScanner.scan(state);
      return;
    }
    StateScannerDifferentialTest.agree(state);
    try {
      StateIndex.of(state);
    } catch (TokenException e) {
      assertEquals(TokenException.Reason.MALFORMED, e.reason(), "a state index refuses only as MALFORMED");
    }
  }

  static final FuzzSeeds INPUTS = FuzzSeeds.of(ClaimsReaderFuzzTest.class);

  @Test
  void theCheckedInSeedsAreThere() throws IOException {
    for (String method : List.of("fastClaimsReaderAgreesWithJackson", "stateScannerAgreesWithJackson")) {
      try (var files = Files.list(INPUTS.dir(method))) {
        assertTrue(files.count() >= 4, method);
      }
    }
  }

  /**
   * Rewrites the checked-in seeds from the differential tests' own seeds and odd cases (the
   * command is in docs/FUZZING.md).
   */
  public static void main(String[] args) throws IOException {
    List<String> claims = new ArrayList<>(FastClaimsDifferentialTest.SEEDS);
    claims.add("{\"iss\":\"https://issuer.example\",\"aud\":\"app\",\"aud\":\"app\"}");
    claims.add("{\"exp\":1e3,\"st\":{\"a\":[1,]}}");
    claims.add("{\"\\u0065xp\":1,\"iss\":\"caf\u00e9\",\"st\":{\"a\":\"\\ud800\"}}");
    List<String> states = new ArrayList<>(StateScannerDifferentialTest.SEEDS);
    states.add("{\"x\":[{\"k\":1,\"\\u006b\":2}]}");
    states.add("{\"a\":01,\"b\":1.,\"c\":\"\t\"}");
    INPUTS.writeTexts("fastClaimsReaderAgreesWithJackson", claims, StandardCharsets.UTF_8);
    INPUTS.writeTexts("stateScannerAgreesWithJackson", states, StandardCharsets.UTF_8);
  }
}
