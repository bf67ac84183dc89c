package dev.sessionless.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The USL fitter against published results and synthetic data with known parameters.
 *
 * <p>Published values come from the R {@code usl} package by Neil J. Gunther and Stefan Möding
 * (github.com/smoeding/usl, version 3.0.4): its datasets {@code data/specsdm91.rda} and
 * {@code data/raytracer.rda} (from Gunther, <i>Guerrilla Capacity Planning</i>, Springer 2007),
 * the {@code summary()} of the SPEC SDM91 fit printed in its README and in
 * {@code tests/summary.Rout.save} and {@code tests/peak-scalability.Rout.save}, and the fit of
 * the first six raytracer points in {@code tests/confint.Rout.save}; the vignette
 * ({@code vignettes/usl.Rnw}, "Case Study: Hardware Scalability") states that the full raytracer
 * data fit with β = 0.
 */
class UslTest {
  static final List<Measurement> SPECSDM91 = points(
      new double[] {1, 18, 36, 72, 108, 144, 216},
      new double[] {64.9, 995.9, 1652.4, 1853.2, 1828.9, 1775.0, 1702.2});
  static final List<Measurement> RAYTRACER = points(
      new double[] {1, 4, 8, 12, 16, 20, 24, 28, 32, 48, 64},
      new double[] {20, 78, 130, 170, 190, 200, 210, 230, 260, 280, 310});

  static List<Measurement> points(double[] n, double[] x) {
    List<Measurement> list = new ArrayList<>();
    for (int i = 0; i < n.length; i++) {
      list.add(new Measurement(n[i], x[i]));
    }
    return list;
  }

  static void assertClose(double expected, double actual, double relative, String what) {
    assertEquals(expected, actual, Math.abs(expected) * relative, what);
  }

  /** R: alpha 0.0277285 (se 0.0091217), beta 0.0001044 (se 1.988e-05), gamma 89.995 (se 14.213). */
  @Test
  void specsdm91MatchesTheRPackagesSummary() {
    UslFit fit = Usl.fit(SPECSDM91);
    assertClose(0.0277285, fit.alpha(), 1e-4, "alpha");
    assertClose(1.044e-4, fit.beta(), 1e-3, "beta");
    assertClose(89.9952330, fit.lambda(), 1e-4, "lambda");
    assertClose(0.0091217, fit.alphaError(), 1e-3, "se alpha");
    assertClose(1.988e-5, fit.betaError(), 1e-3, "se beta");
    assertClose(14.2134894, fit.lambdaError(), 1e-3, "se lambda");
    assertClose(82.85, fit.residualStandardError(), 1e-3, "residual standard error");
    // peak.scalability(u) == 96.51956 and "peak: throughput 1884 at load 96.52"
    assertClose(96.51956, fit.peakConcurrency(), 1e-4, "N*");
    assertClose(1884, fit.peakThroughput(), 5e-4, "X_max");
    assertTrue(fit.rSquared() > 0.98 && fit.rSquared() < 1, "R² " + fit.rSquared());
    assertTrue(fit.warnings().isEmpty(), fit.warnings().toString());
  }

  /** R, tests/confint.Rout.save: raytracer[1:6] gives alpha 0.02444, beta 0.00163, gamma 20.85605. */
  @Test
  void firstSixRaytracerPointsMatchTheRPackage() {
    UslFit fit = Usl.fit(RAYTRACER.subList(0, 6));
    assertClose(0.02444, fit.alpha(), 1e-3, "alpha");
    assertClose(0.00163, fit.beta(), 3e-3, "beta");
    assertClose(20.85605, fit.lambda(), 1e-5, "lambda");
    // R's confint (profile likelihood): alpha in (0.00754, 0.04135), beta in (0.0011, 0.00215)
    assertTrue(fit.alphaError() > 0 && fit.alpha() - fit.alphaError() > 0.00754
        && fit.alpha() + fit.alphaError() < 0.04135, fit.summary());
    assertTrue(fit.beta() - fit.betaError() > 0.0011 && fit.beta() + fit.betaError() < 0.00215, fit.summary());
  }

  /** The vignette: the full raytracer data fit with β = 0, so there is no peak, only λ/α. */
  @Test
  void fullRaytracerHasNoCoherencyPenaltyAndSaysSo() {
    UslFit fit = Usl.fit(RAYTRACER);
    assertEquals(0, fit.beta(), 1e-12);
    assertClose(0.05777, fit.alpha(), 1e-3, "alpha"); // also what SciPy's bounded TRF gives
    assertClose(21.849, fit.lambda(), 1e-4, "lambda");
    assertEquals(Double.POSITIVE_INFINITY, fit.peakConcurrency());
    assertClose(fit.lambda() / fit.alpha(), fit.peakThroughput(), 1e-12, "Amdahl asymptote");
    assertTrue(fit.warnings().stream().anyMatch(w -> w.contains("β = 0")), fit.warnings().toString());
  }

  @Test
  void syntheticDataWithSeededNoiseRecoversKnownParameters() {
    double lambda = 1200;
    double alpha = 0.04;
    double beta = 0.0008;
    Random random = new Random(42);
    List<Measurement> data = new ArrayList<>();
    for (int n : new int[] {1, 2, 4, 8, 12, 16, 24, 32, 48, 64}) {
      double noise = 1 + 0.01 * random.nextGaussian();
      data.add(new Measurement(n, Usl.throughput(lambda, alpha, beta, n) * noise));
    }
    UslFit fit = Usl.fit(data);
    assertClose(lambda, fit.lambda(), 0.03, "lambda");
    assertClose(alpha, fit.alpha(), 0.25, "alpha");
    assertClose(beta, fit.beta(), 0.1, "beta");
    // the truth lies within three standard errors
    assertTrue(Math.abs(fit.alpha() - alpha) < 3 * fit.alphaError(), fit.summary());
    assertTrue(Math.abs(fit.beta() - beta) < 3 * fit.betaError(), fit.summary());
    assertClose(Math.sqrt((1 - alpha) / beta), fit.peakConcurrency(), 0.1, "N*");
    assertTrue(fit.rSquared() > 0.99, fit.summary());
  }

  /**
   * Five points from N = 100 to 400, far from N = 1. From the R package's single start
   * (λ = max(X/N), α = 0.01, β = 0.0001; {@code R/usl.R}) Levenberg–Marquardt stops with β on its
   * bound and explains almost nothing; the grid of starts finds a fit with R² above 0.99.
   */
  @Test
  void sparseDataFarFromOneDefeatsASingleStartButNotTheGrid() {
    List<Measurement> data = points(new double[] {100, 150, 200, 300, 400},
        new double[] {380.14, 498.19, 580.37, 706.39, 715.77});
    double maxPerUser = data.stream().mapToDouble(m -> m.throughput() / m.concurrency()).max().orElseThrow();
    UslFit single = Usl.singleStart(data, maxPerUser, 0.01, 1e-4);
    UslFit fit = Usl.fit(data);
    assertTrue(single.rSquared() < 0.5, single.summary());
    assertTrue(fit.rSquared() > 0.99, fit.summary());
    assertTrue(fit.residualSumOfSquares() < single.residualSumOfSquares() / 100, fit.summary() + single.summary());
    assertTrue(fit.beta() > 0, fit.summary());
  }

  @Test
  void exactDataIsFitExactly() {
    List<Measurement> data = new ArrayList<>();
    for (int n = 1; n <= 64; n *= 2) {
      data.add(new Measurement(n, Usl.throughput(500, 0.1, 0.001, n)));
    }
    UslFit fit = Usl.fit(data);
    assertClose(500, fit.lambda(), 1e-6, "lambda");
    assertClose(0.1, fit.alpha(), 1e-6, "alpha");
    assertClose(0.001, fit.beta(), 1e-6, "beta");
    assertClose(1, fit.rSquared(), 1e-12, "R²");
  }

  @Test
  void fewerThanSixPointsIsFittedWithAWarning() {
    UslFit fit = Usl.fit(SPECSDM91.subList(0, 5));
    assertTrue(fit.warnings().stream().anyMatch(w -> w.startsWith("only 5 points")), fit.warnings().toString());
  }

  @Test
  void aPeakFarBeyondTheMeasuredRangeIsFlaggedAsExtrapolation() {
    List<Measurement> data = new ArrayList<>();
    for (int n = 1; n <= 8; n++) {
      data.add(new Measurement(n, Usl.throughput(100, 0.02, 0.0001, n)));
    }
    UslFit fit = Usl.fit(data); // N* ≈ 99, measured up to 8
    assertTrue(fit.warnings().stream().anyMatch(w -> w.contains("far beyond")), fit.warnings().toString());
  }

  @Test
  void fewerThanThreeDistinctConcurrenciesIsRejectedAsInvalidInput() {
    LoadException e = assertThrows(LoadException.class, () -> Usl.fit(List.of(
        new Measurement(1, 10), new Measurement(2, 19), new Measurement(2, 18))));
    assertEquals(LoadException.Reason.INVALID_INPUT, e.reason());
    assertTrue(e.getMessage().contains("three distinct"), e.getMessage());
  }

  @Test
  void csvWithHeaderCommentsAndBlankLinesIsRead() {
    List<Measurement> data = Usl.parseCsv("concurrency,throughput\n# ramp\n1,10\n\n2, 19.5\r\n4,36\n");
    assertEquals(List.of(new Measurement(1, 10), new Measurement(2, 19.5), new Measurement(4, 36)), data);
  }

  @Test
  void malformedCsvNamesTheLine() {
    LoadException e = assertThrows(LoadException.class, () -> Usl.parseCsv("1,10\n2,abc\n"));
    assertEquals(LoadException.Reason.INVALID_INPUT, e.reason());
    assertTrue(e.getMessage().startsWith("line 2"), e.getMessage());
    LoadException columns = assertThrows(LoadException.class, () -> Usl.parseCsv("1,10,3\n"));
    assertTrue(columns.getMessage().contains("two columns"), columns.getMessage());
    LoadException negative = assertThrows(LoadException.class, () -> Usl.parseCsv("1,10\n0,5\n"));
    assertTrue(negative.getMessage().startsWith("line 2: concurrency"), negative.getMessage());
  }
}
