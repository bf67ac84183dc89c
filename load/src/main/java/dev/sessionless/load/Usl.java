package dev.sessionless.load;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresBuilder;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresProblem;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresOptimizer;
import org.apache.commons.math3.fitting.leastsquares.LevenbergMarquardtOptimizer;
import org.apache.commons.math3.fitting.leastsquares.MultivariateJacobianFunction;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.RealMatrix;
import org.apache.commons.math3.linear.RealVector;
import org.apache.commons.math3.util.Pair;

/**
 * Fits Gunther's Universal Scalability Law, X(N) = λN / (1 + α(N−1) + βN(N−1)), to measured
 * throughput.
 *
 * <p>The fit is bounded non-linear least squares (Commons Math's Levenberg–Marquardt, each step
 * projected back into λ &gt; 0, 0 ≤ α ≤ 1, 0 ≤ β ≤ 1, the bounds the R {@code usl} package uses),
 * run from a grid of starting points; the start with the smallest residual sum of squares wins.
 * A single start (what most tools do) can stop in a local minimum when the data are sparse and
 * begin far from N = 1; the grid makes that unlikely, not impossible.
 *
 * <pre>{@code
 * UslFit fit = Usl.fit(Usl.readCsv(Path.of("ramp.csv")));
 * System.out.println(fit.summary());
 * }</pre>
 *
 * <p>Thread-safe: every method is a pure function of its arguments.
 */
public final class Usl {
  /** Starting values of α: none, light, moderate and heavy contention. */
  private static final double[] ALPHA_STARTS = {0, 1e-3, 1e-2, 0.05, 0.2, 0.6};
  /** Starting values of β, spread over the orders of magnitude seen in practice. */
  private static final double[] BETA_STARTS = {0, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.1};

  private Usl() {}

  /**
   * The USL's throughput at concurrency {@code n}.
   *
   * @param lambda throughput of one user, λ
   * @param alpha contention, α
   * @param beta coherency, β
   * @param n concurrency
   * @return λn / (1 + α(n−1) + βn(n−1))
   */
  public static double throughput(double lambda, double alpha, double beta, double n) {
    return lambda * n / (1 + alpha * (n - 1) + beta * n * (n - 1));
  }

  /**
   * Fits the USL to the points, from many starting points, keeping the global best.
   *
   * @param points at least three points with at least three distinct concurrencies
   * @return the best fit, with standard errors and warnings
   * @throws LoadException {@link LoadException.Reason#INVALID_INPUT} for fewer than three
   *     distinct concurrencies or all-zero throughput; {@link LoadException.Reason#FIT_FAILED}
   *     when no start converged
   */
  public static UslFit fit(List<Measurement> points) {
    double[][] grid = new double[ALPHA_STARTS.length * BETA_STARTS.length][];
    int i = 0;
    for (double a : ALPHA_STARTS) {
      for (double b : BETA_STARTS) {
        grid[i++] = new double[] {a, b};
      }
    }
    return fitFrom(points, grid);
  }

  /**
   * Fits from the given (α, β) starting points only; λ starts at its least-squares value for
   * each. {@code fit} uses a fixed grid; this exists so a test can show what one start misses.
   */
  static UslFit fitFrom(List<Measurement> points, double[]... alphaBetaStarts) {
    List<Measurement> data = List.copyOf(points);
    checkFittable(data);
    int n = data.size();
    double[] x = new double[n];
    double[] y = new double[n];
    for (int k = 0; k < n; k++) {
      x[k] = data.get(k).concurrency();
      y[k] = data.get(k).throughput();
    }
    // A projected step can stall against a bound (β wants to be negative, α cannot follow), so
    // the faces α = 0 and β = 0 are fitted as models of their own and compete with the interior.
    double[] best = null;
    double bestCost = Double.POSITIVE_INFINITY;
    RuntimeException lastFailure = null;
    for (boolean alphaFree : new boolean[] {true, false}) {
      for (boolean betaFree : new boolean[] {true, false}) {
        for (double[] start : alphaBetaStarts) {
          if ((!alphaFree && start[0] != alphaBetaStarts[0][0]) || (!betaFree && start[1] != alphaBetaStarts[0][1])) {
            continue; // the fixed parameter makes these starts duplicates
          }
          double a0 = alphaFree ? start[0] : 0;
          double b0 = betaFree ? start[1] : 0;
          try {
            double[] p = solve(x, y, new double[] {bestLambda(x, y, a0, b0), a0, b0}, alphaFree, betaFree);
            double cost = cost(x, y, p);
            if (cost < bestCost) {
              bestCost = cost;
              best = p;
            }
          } catch (RuntimeException e) { // TooManyEvaluations/ConvergenceException from one start
            lastFailure = e;
          }
        }
      }
    }
    if (best == null) {
      throw new LoadException(LoadException.Reason.FIT_FAILED,
          "the USL fit converged from no starting point; check the data for outliers", lastFailure);
    }
    RealMatrix covariance = null;
    try {
      covariance = problem(x, y, best, true, true).evaluate(new ArrayRealVector(best)).getCovariances(1e-300);
    } catch (RuntimeException singular) {
      // JᵀJ is singular: the data cannot separate the parameters; the errors stay undefined
    }
    return UslFit.of(data, best, covariance);
  }

  /**
   * One bounded Levenberg–Marquardt run from one start over all three parameters: what a
   * single-start tool does. {@code fit} does better; this exists so a test can show by how much.
   */
  static UslFit singleStart(List<Measurement> points, double lambda, double alpha, double beta) {
    List<Measurement> data = List.copyOf(points);
    checkFittable(data);
    double[] x = data.stream().mapToDouble(Measurement::concurrency).toArray();
    double[] y = data.stream().mapToDouble(Measurement::throughput).toArray();
    return UslFit.of(data, solve(x, y, new double[] {lambda, alpha, beta}, true, true), null);
  }

  /** Levenberg–Marquardt over the free parameters, each step projected into the bounds. */
  private static double[] solve(double[] x, double[] y, double[] start, boolean alphaFree, boolean betaFree) {
    LevenbergMarquardtOptimizer optimizer = new LevenbergMarquardtOptimizer()
        .withCostRelativeTolerance(1e-15)
        .withParameterRelativeTolerance(1e-15)
        .withOrthoTolerance(1e-15);
    LeastSquaresOptimizer.Optimum optimum = optimizer.optimize(problem(x, y, start, alphaFree, betaFree));
    return full(optimum.getPoint(), start, alphaFree, betaFree);
  }

  private static LeastSquaresProblem problem(double[] x, double[] y, double[] start, boolean alphaFree, boolean betaFree) {
    int free = 1 + (alphaFree ? 1 : 0) + (betaFree ? 1 : 0);
    int n = x.length;
    MultivariateJacobianFunction model = q -> {
      double[] p = full(q, start, alphaFree, betaFree);
      RealVector value = new ArrayRealVector(n);
      RealMatrix jacobian = new Array2DRowRealMatrix(n, free);
      for (int k = 0; k < n; k++) {
        double nk = x[k];
        double d = 1 + p[1] * (nk - 1) + p[2] * nk * (nk - 1);
        value.setEntry(k, p[0] * nk / d);
        int c = 0;
        jacobian.setEntry(k, c++, nk / d);
        if (alphaFree) {
          jacobian.setEntry(k, c++, -p[0] * nk * (nk - 1) / (d * d));
        }
        if (betaFree) {
          jacobian.setEntry(k, c, -p[0] * nk * nk * (nk - 1) / (d * d));
        }
      }
      return new Pair<>(value, jacobian);
    };
    double[] q0 = new double[free];
    int c = 0;
    q0[c++] = start[0];
    if (alphaFree) {
      q0[c++] = start[1];
    }
    if (betaFree) {
      q0[c] = start[2];
    }
    return new LeastSquaresBuilder()
        .model(model)
        .target(y)
        .start(q0)
        .parameterValidator(q -> project(q, alphaFree, betaFree))
        .maxEvaluations(20_000)
        .maxIterations(5_000)
        .build();
  }

  /** (λ, α, β) from the free parameters, the fixed ones taken from {@code start}. */
  private static double[] full(RealVector q, double[] start, boolean alphaFree, boolean betaFree) {
    int c = 0;
    double lambda = q.getEntry(c++);
    double alpha = alphaFree ? q.getEntry(c++) : start[1];
    double beta = betaFree ? q.getEntry(c) : start[2];
    return new double[] {lambda, alpha, beta};
  }

  private static double cost(double[] x, double[] y, double[] p) {
    double rss = 0;
    for (int k = 0; k < x.length; k++) {
      double r = y[k] - throughput(p[0], p[1], p[2], x[k]);
      rss += r * r;
    }
    return rss;
  }

  /** Keeps the parameters inside the bounds the model is meaningful in. */
  private static RealVector project(RealVector p, boolean alphaFree, boolean betaFree) {
    RealVector q = p.copy();
    q.setEntry(0, Math.max(q.getEntry(0), 1e-300));
    for (int c = 1; c < q.getDimension(); c++) {
      q.setEntry(c, Math.min(Math.max(q.getEntry(c), 0), 1));
    }
    return q;
  }

  /** λ is linear in the model: for fixed α and β its least-squares value is closed-form. */
  private static double bestLambda(double[] x, double[] y, double alpha, double beta) {
    double num = 0;
    double den = 0;
    for (int k = 0; k < x.length; k++) {
      double g = x[k] / (1 + alpha * (x[k] - 1) + beta * x[k] * (x[k] - 1));
      num += g * y[k];
      den += g * g;
    }
    return Math.max(num / den, 1e-300);
  }

  private static void checkFittable(List<Measurement> data) {
    long distinct = data.stream().mapToDouble(Measurement::concurrency).distinct().count();
    if (distinct < 3) {
      throw new LoadException(LoadException.Reason.INVALID_INPUT,
          "a USL fit has three parameters and needs at least three distinct concurrencies, got "
              + distinct + "; measure more load levels (six or more give a trustworthy fit)");
    }
    if (data.stream().allMatch(m -> m.throughput() == 0)) {
      throw new LoadException(LoadException.Reason.INVALID_INPUT,
          "every throughput is zero: nothing to fit; check that the run reached the system");
    }
  }

  /**
   * Reads measurements from CSV text: two numeric columns, concurrency then throughput, comma
   * separated; an optional header line, blank lines and lines starting with {@code #} are
   * skipped.
   *
   * @param csv the CSV text
   * @return the points, in file order
   * @throws LoadException {@link LoadException.Reason#INVALID_INPUT} naming the line for a
   *     malformed line or an out-of-range value
   */
  public static List<Measurement> parseCsv(String csv) {
    List<Measurement> points = new ArrayList<>();
    String[] lines = csv.split("\r?\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] cells = line.split(",", -1);
      if (cells.length != 2) {
        throw new LoadException(LoadException.Reason.INVALID_INPUT, "line " + (i + 1)
            + ": expected two columns 'concurrency,throughput', got " + cells.length);
      }
      double n;
      double t;
      try {
        n = Double.parseDouble(cells[0].strip());
        t = Double.parseDouble(cells[1].strip());
      } catch (NumberFormatException e) {
        if (points.isEmpty() && i == firstContentLine(lines)) {
          continue; // a header
        }
        throw new LoadException(LoadException.Reason.INVALID_INPUT, "line " + (i + 1)
            + ": not two numbers: '" + abbreviate(line) + "'");
      }
      try {
        points.add(new Measurement(n, t));
      } catch (LoadException e) {
        throw new LoadException(LoadException.Reason.INVALID_INPUT, "line " + (i + 1) + ": " + e.getMessage());
      }
    }
    return List.copyOf(points);
  }

  /**
   * Reads measurements from a CSV file (UTF-8), as {@link #parseCsv(String)}.
   *
   * @param file the CSV file
   * @return the points
   * @throws LoadException {@link LoadException.Reason#INVALID_INPUT} for an unreadable or
   *     malformed file
   */
  public static List<Measurement> readCsv(Path file) {
    try {
      return parseCsv(Files.readString(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new LoadException(LoadException.Reason.INVALID_INPUT, "cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  private static int firstContentLine(String[] lines) {
    for (int i = 0; i < lines.length; i++) {
      String l = lines[i].strip();
      if (!l.isEmpty() && !l.startsWith("#")) {
        return i;
      }
    }
    return -1;
  }

  private static String abbreviate(String s) {
    return s.length() <= 60 ? s : s.substring(0, 57) + "...";
  }

  static String fmt(double v) {
    return String.format(Locale.ROOT, "%.6g", v);
  }
}
