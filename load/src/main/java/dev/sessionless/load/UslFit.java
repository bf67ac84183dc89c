package dev.sessionless.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.commons.math3.linear.RealMatrix;

/**
 * A fitted Universal Scalability Law: λ, α, β with standard errors, goodness of fit, the peak and
 * warnings about how far to trust it. Made by {@link Usl#fit}.
 *
 * <p>Standard errors are the usual asymptotic ones of non-linear least squares,
 * √(diag((JᵀJ)⁻¹) · RSS/(n − 3)), as R's {@code nls} reports them; with fewer than four points
 * they are undefined ({@code NaN}). A parameter that sits on its bound (β = 0 is common) has a
 * standard error that means little.
 *
 * <p>Immutable and thread-safe.
 */
public final class UslFit {
  /** The peak lies "far beyond" the data when N* exceeds this multiple of the largest N measured. */
  static final double FAR_BEYOND = 2.0;

  private final List<Measurement> points;
  private final double lambda;
  private final double alpha;
  private final double beta;
  private final double lambdaError;
  private final double alphaError;
  private final double betaError;
  private final double rSquared;
  private final double residualStandardError;
  private final double residualSumOfSquares;
  private final List<String> warnings;

  private UslFit(List<Measurement> points, double[] p, double[] se, double rss, double r2) {
    this.points = points;
    this.lambda = p[0];
    this.alpha = p[1];
    this.beta = p[2];
    this.lambdaError = se[0];
    this.alphaError = se[1];
    this.betaError = se[2];
    this.residualSumOfSquares = rss;
    this.rSquared = r2;
    this.residualStandardError = points.size() > 3 ? Math.sqrt(rss / (points.size() - 3)) : Double.NaN;
    this.warnings = List.copyOf(computeWarnings());
  }

  static UslFit of(List<Measurement> points, double[] p, RealMatrix cov) {
    int n = points.size();
    double rss = 0;
    double mean = points.stream().mapToDouble(Measurement::throughput).average().orElse(0);
    double tss = 0;
    for (Measurement m : points) {
      double r = m.throughput() - Usl.throughput(p[0], p[1], p[2], m.concurrency());
      rss += r * r;
      tss += (m.throughput() - mean) * (m.throughput() - mean);
    }
    double[] se = {Double.NaN, Double.NaN, Double.NaN};
    if (n > 3 && cov != null) {
      double s2 = rss / (n - 3);
      for (int i = 0; i < 3; i++) {
        se[i] = Math.sqrt(cov.getEntry(i, i) * s2);
      }
    }
    double r2 = tss == 0 ? Double.NaN : 1 - rss / tss;
    return new UslFit(points, p, se, rss, r2);
  }

  private List<String> computeWarnings() {
    List<String> w = new ArrayList<>();
    if (points.size() < 6) {
      w.add("only " + points.size() + " points: a three-parameter fit needs six or more to be"
          + " trustworthy; measure more load levels");
    }
    double maxN = maxConcurrency();
    if (beta == 0) {
      w.add("β = 0: no coherency penalty measured, so no peak; throughput approaches λ/α"
          + (alpha > 0 ? " = " + Usl.fmt(lambda / alpha) : "") + " (or grows without limit)");
    } else if (peakConcurrency() > FAR_BEYOND * maxN) {
      w.add("the peak N* = " + Usl.fmt(peakConcurrency()) + " lies far beyond the largest"
          + " concurrency measured (" + Usl.fmt(maxN) + "): it is an extrapolation; measure"
          + " closer to it before relying on it");
    }
    return w;
  }

  /** The points the fit was made from, in input order. */
  public List<Measurement> points() {
    return points;
  }

  /** λ: the throughput of one user (the ideal slope). */
  public double lambda() {
    return lambda;
  }

  /** α: contention (serialised fraction), in [0, 1]. */
  public double alpha() {
    return alpha;
  }

  /** β: coherency delay (crosstalk), in [0, 1]. */
  public double beta() {
    return beta;
  }

  /** Standard error of λ, {@code NaN} when undefined. */
  public double lambdaError() {
    return lambdaError;
  }

  /** Standard error of α, {@code NaN} when undefined. */
  public double alphaError() {
    return alphaError;
  }

  /** Standard error of β, {@code NaN} when undefined. */
  public double betaError() {
    return betaError;
  }

  /** The coefficient of determination, 1 − RSS/TSS. */
  public double rSquared() {
    return rSquared;
  }

  /** The residual sum of squares the optimiser minimised. */
  public double residualSumOfSquares() {
    return residualSumOfSquares;
  }

  /** √(RSS/(n − 3)), R's "residual standard error"; {@code NaN} with three points. */
  public double residualStandardError() {
    return residualStandardError;
  }

  /** N* = √((1 − α)/β), where throughput peaks; infinite when β = 0. */
  public double peakConcurrency() {
    return beta == 0 ? Double.POSITIVE_INFINITY : Math.sqrt((1 - alpha) / beta);
  }

  /** X(N*), the largest throughput the model predicts; λ/α (or infinity) when β = 0. */
  public double peakThroughput() {
    if (beta == 0) {
      return alpha == 0 ? Double.POSITIVE_INFINITY : lambda / alpha;
    }
    return throughput(peakConcurrency());
  }

  /**
   * The model's throughput at concurrency {@code n}.
   *
   * @param n the concurrency, &gt; 0
   * @return X(n)
   */
  public double throughput(double n) {
    return Usl.throughput(lambda, alpha, beta, n);
  }

  /** Warnings about the data or the extrapolation; empty when none. */
  public List<String> warnings() {
    return warnings;
  }

  private double maxConcurrency() {
    return points.stream().mapToDouble(Measurement::concurrency).max().orElse(1);
  }

  /** A few lines for a person: the parameters with errors, R², the peak and the warnings. */
  public String summary() {
    StringBuilder s = new StringBuilder();
    s.append(String.format(Locale.ROOT, "USL fit of %d points:%n", points.size()));
    s.append(String.format(Locale.ROOT, "  lambda %s ± %s%n", Usl.fmt(lambda), Usl.fmt(lambdaError)));
    s.append(String.format(Locale.ROOT, "  alpha  %s ± %s%n", Usl.fmt(alpha), Usl.fmt(alphaError)));
    s.append(String.format(Locale.ROOT, "  beta   %s ± %s%n", Usl.fmt(beta), Usl.fmt(betaError)));
    s.append(String.format(Locale.ROOT, "  R² %.4f, residual standard error %s%n", rSquared,
        Usl.fmt(residualStandardError)));
    s.append(String.format(Locale.ROOT, "  peak N* = %s, X_max = %s%n", Usl.fmt(peakConcurrency()),
        Usl.fmt(peakThroughput())));
    for (String w : warnings) {
      s.append("  warning: ").append(w).append(System.lineSeparator());
    }
    return s.toString();
  }

  @Override
  public String toString() {
    return "UslFit[lambda=" + Usl.fmt(lambda) + ", alpha=" + Usl.fmt(alpha) + ", beta="
        + Usl.fmt(beta) + ", r2=" + Usl.fmt(rSquared) + ", points=" + points.size() + "]";
  }
}
