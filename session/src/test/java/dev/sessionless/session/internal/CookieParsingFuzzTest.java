package dev.sessionless.session.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sessionless.core.TokenException;
import dev.sessionless.testing.FuzzSeeds;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Coverage-guided fuzzing (Jazzer) of the {@code Cookie} header parser ({@link CookieHeaders})
 * and the chunk reassembly of {@link CookieCarrier#read}. The parser must find exactly what a
 * plain reading of RFC 6265's {@code cookie-string} (the grammar its class comment states)
 * finds; the carrier must answer a token region within its bounds or one of its two typed
 * problems ({@code MALFORMED}, {@code TOO_LARGE}), and throw nothing.
 *
 * <p>The input is ISO-8859-1 text; each line ({@code \n}) is one {@code Cookie} header, as
 * HTTP/2 sends one per cookie. Saved inputs live under {@code
 * src/test/resources/dev/sessionless/session/internal/CookieParsingFuzzTestInputs/<method>/}.
 */
@Timeout(120)
class CookieParsingFuzzTest {
  static final String NAME = "SL";
  /** Ours: exactly "SL" or "SL.<1-999, no leading zero>", as the carrier names its chunks. */
  static final CookieHeaders.NameTest OURS = (h, from, to) -> ours(h.substring(from, to));
  static final CookieCarrier CARRIER = new CookieCarrier(NAME, "/", null, -1, "Lax", 4, true);

  static boolean ours(String n) {
    return n.equals(NAME) || n.matches("SL\\.[1-9][0-9]{0,2}");
  }

  static List<String> headers(byte[] input) {
    return List.of(new String(input, StandardCharsets.ISO_8859_1).split("\n", -1));
  }

  /** The parser finds what the reference reading finds, in order, up to its bound. */
  @FuzzTest(maxDuration = "5m")
  void cookieHeadersFindWhatTheGrammarSays(byte[] input) {
    List<String> headers = headers(input);
    for (int atMost : new int[] {1, 3, CookieCarrier.MAX_CLEARED}) {
      List<List<String>> found = new ArrayList<>();
      for (CookieHeaders.Found f : CookieHeaders.find(Collections.enumeration(headers), OURS, atMost, NAME)) {
        assertTrue(f.start() >= 0 && f.start() <= f.end() && f.end() <= f.header().length(), "a region outside its header");
        found.add(List.of(f.name(), f.value()));
      }
      List<List<String>> expected = reference(headers);
      assertEquals(expected.subList(0, Math.min(expected.size(), Math.max(1, atMost))), found,
          "atMost " + atMost + " for " + headers);
    }
  }

  /**
   * The carrier reads one whole cookie or its chunks into a token within {@code maxLength}, or
   * answers a typed problem; it never throws, and it names only cookies of ours.
   */
  @FuzzTest(maxDuration = "5m")
  void chunkedCookiesReassembleOrAreRefusedWithATypedProblem(byte[] input) {
    List<String> headers = headers(input);
    RequestView request = new MapRequest(headers);
    Set<String> names = Set.copyOf(reference(headers).stream().map(f -> f.get(0)).toList());
    for (int maxLength : new int[] {CARRIER.maxTokenLength(), 64}) {
      Carrier.Incoming in = CARRIER.read(request, maxLength);
      assertTrue(names.containsAll(in.cookies), "names a cookie that is not ours: " + in.cookies);
      if (in.problem != null) {
        assertTrue(in.problem == TokenException.Reason.MALFORMED || in.problem == TokenException.Reason.TOO_LARGE,
            "problem " + in.problem);
        assertNull(in.token, "a problem and a token");
      } else if (in.token != null) {
        assertTrue(0 <= in.start && in.start <= in.end && in.end <= in.token.length(), "a region outside its text");
        assertTrue(in.end - in.start <= maxLength, "a token over maxLength " + maxLength);
        String first = reference(headers).stream().filter(f -> f.get(0).equals(NAME)).findFirst().orElseThrow().get(1);
        assertTrue(in.token.substring(in.start, in.end).startsWith(first), "the token does not start with the first " + NAME);
      } else {
        assertTrue(in.cookies.isEmpty(), "cookies of ours but neither token nor problem: " + in.cookies);
      }
    }
  }

  /**
   * RFC 6265's {@code cookie-string} read plainly: pieces split at {@code ;}, a piece without
   * {@code =} skipped, spaces and tabs trimmed around the name and value, one pair of
   * surrounding double quotes removed from the value; ours kept as [name, value], in order.
   */
  static List<List<String>> reference(List<String> headers) {
    List<List<String>> out = new ArrayList<>();
    for (String h : headers) {
      for (String piece : h.split(";", -1)) {
        int eq = piece.indexOf('=');
        if (eq < 0) {
          continue;
        }
        String name = trim(piece.substring(0, eq));
        String value = trim(piece.substring(eq + 1));
        if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
          value = value.substring(1, value.length() - 1);
        }
        if (!name.isEmpty() && ours(name)) {
          out.add(List.of(name, value));
        }
      }
    }
    return out;
  }

  static String trim(String s) {
    int a = 0;
    int b = s.length();
    while (a < b && (s.charAt(a) == ' ' || s.charAt(a) == '\t')) {
      a++;
    }
    while (b > a && (s.charAt(b - 1) == ' ' || s.charAt(b - 1) == '\t')) {
      b--;
    }
    return s.substring(a, b);
  }

  @Test
  void theReferenceReadingAgreesWithTheParserOnItsOwnTests() {
    List<String> h = List.of("a=1; SL=abc.def; b=2", " \tSL.1 \t= \"v\"\t ;SL.01=x; SLX=1", "SL");
    assertEquals(List.of(List.of("SL", "abc.def"), List.of("SL.1", "v")), reference(h));
    cookieHeadersFindWhatTheGrammarSays(String.join("\n", h).getBytes(StandardCharsets.ISO_8859_1));
  }

  static final FuzzSeeds INPUTS = FuzzSeeds.of(CookieParsingFuzzTest.class);

  @Test
  void theCheckedInSeedsAreThere() throws IOException {
    for (String m : List.of("cookieHeadersFindWhatTheGrammarSays", "chunkedCookiesReassembleOrAreRefusedWithATypedProblem")) {
      try (var files = Files.list(INPUTS.dir(m))) {
        assertTrue(files.count() >= 4, m);
      }
    }
  }

  /**
   * Rewrites the checked-in seeds (headers like the filter's own tests send); the command is in
   * docs/FUZZING.md.
   */
  public static void main(String[] args) throws IOException {
    String token = "eyJhbGciOiJIUzI1NiIsImtpZCI6ImsxIn0.eyJpc3MiOiJpIiwiYXVkIjoiYSJ9.c2lnbmF0dXJl";
    List<String> seeds = List.of(
        "a=1; SL=" + token + "; b=2",
        "SL=" + token.substring(0, 30) + "; SL.1=" + token.substring(30, 60) + "; SL.2=" + token.substring(60),
        "theme=dark\nSL.1=\"" + token.substring(20) + "\"\nSL=" + token.substring(0, 20),
        "SL=a; SL=b; SL.1=c; SL.3=d",
        " \tSL \t= \tv\t ;a=1;;; =; SL.01=x; SL.1000=y; SLX=z",
        "a;a;a;a;a;a;a;a;SL=x",
        "SL.1=" + token);
    for (String m : List.of("cookieHeadersFindWhatTheGrammarSays", "chunkedCookiesReassembleOrAreRefusedWithATypedProblem")) {
      INPUTS.writeTexts(m, seeds, StandardCharsets.ISO_8859_1);
    }
  }
}
