package dev.sessionless.load.internal;

import dev.sessionless.load.Measurement;
import dev.sessionless.load.UslFit;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** PNG charts drawn with XChart: throughput vs concurrency with USL curves, p99 vs rate, a lag CDF. */
public final class Charts {
  private static final Color[] COLORS = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0x9467bd)};

  private Charts() {}

  /**
   * Measured throughput (dots) and the fitted USL (line) per system.
   *
   * @param title the chart title
   * @param fits each system's fit, in legend order
   * @param file where to write the PNG (".png" is added by XChart when missing)
   */
  public static void usl(String title, Map<String, UslFit> fits, Path file) {
    XYChart chart = new XYChartBuilder().width(900).height(640).title(title)
        .xAxisTitle("concurrent users (N)").yAxisTitle("throughput (requests/s)").build();
    style(chart);
    int c = 0;
    for (Map.Entry<String, UslFit> e : fits.entrySet()) {
      UslFit fit = e.getValue();
      Color color = COLORS[c++ % COLORS.length];
      List<Double> xs = new ArrayList<>();
      List<Double> ys = new ArrayList<>();
      for (Measurement m : fit.points()) {
        xs.add(m.concurrency());
        ys.add(m.throughput());
      }
      XYSeries dots = chart.addSeries(e.getKey() + " measured", xs, ys);
      dots.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
      dots.setMarker(SeriesMarkers.CIRCLE);
      dots.setMarkerColor(color);
      double maxN = xs.stream().mapToDouble(Double::doubleValue).max().orElse(1) * 1.25;
      List<Double> cx = new ArrayList<>();
      List<Double> cy = new ArrayList<>();
      for (int i = 0; i <= 100; i++) {
        double n = 1 + (maxN - 1) * i / 100.0;
        cx.add(n);
        cy.add(fit.throughput(n));
      }
      String label = String.format(java.util.Locale.ROOT, "%s USL (α=%.3g, β=%.3g, R²=%.3f)",
          e.getKey(), fit.alpha(), fit.beta(), fit.rSquared());
      XYSeries line = chart.addSeries(label, cx, cy);
      line.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
      line.setMarker(SeriesMarkers.NONE);
      line.setLineColor(color);
      line.setLineStyle(new BasicStroke(2f));
    }
    save(chart, file);
  }

  /**
   * p99 latency against the arrival rate, per system.
   *
   * @param title the chart title
   * @param series per system, the (rate, p99 ms) points in rate order
   * @param file where to write the PNG
   */
  public static void latency(String title, Map<String, double[][]> series, Path file) {
    XYChart chart = new XYChartBuilder().width(900).height(640).title(title)
        .xAxisTitle("arrival rate (requests/s)").yAxisTitle("p99 latency (ms, from intended send time)").build();
    style(chart);
    int c = 0;
    for (Map.Entry<String, double[][]> e : series.entrySet()) {
      XYSeries s = chart.addSeries(e.getKey(), e.getValue()[0], e.getValue()[1]);
      s.setMarker(SeriesMarkers.CIRCLE);
      s.setLineColor(COLORS[c % COLORS.length]);
      s.setMarkerColor(COLORS[c++ % COLORS.length]);
    }
    save(chart, file);
  }

  /**
   * Cumulative distributions, one line per series: the share of values at or below each value,
   * on a logarithmic x axis (values below 0.1 are drawn at 0.1).
   *
   * @param title the chart title
   * @param xTitle the x axis's title
   * @param series per name, its values in ascending order
   * @param file where to write the PNG
   */
  public static void cdf(String title, String xTitle, Map<String, List<Double>> series, Path file) {
    XYChart chart = new XYChartBuilder().width(900).height(640).title(title)
        .xAxisTitle(xTitle).yAxisTitle("share of (token, node) pairs refused").build();
    style(chart);
    chart.getStyler().setXAxisLogarithmic(true);
    chart.getStyler().setYAxisDecimalPattern("0.00");
    chart.getStyler().setYAxisMin(0.0);
    chart.getStyler().setYAxisMax(1.0);
    int c = 0;
    for (Map.Entry<String, List<Double>> e : series.entrySet()) {
      List<Double> values = e.getValue();
      if (values.isEmpty()) {
        continue;
      }
      List<Double> xs = new ArrayList<>();
      List<Double> ys = new ArrayList<>();
      for (int i = 0; i < values.size(); i++) {
        xs.add(Math.max(0.1, values.get(i)));
        ys.add((i + 1) / (double) values.size());
      }
      XYSeries s = chart.addSeries(e.getKey() + " (" + values.size() + ")", xs, ys);
      s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Step);
      s.setMarker(SeriesMarkers.NONE);
      s.setLineColor(COLORS[c++ % COLORS.length]);
    }
    save(chart, file);
  }

  private static void style(XYChart chart) {
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
    chart.getStyler().setChartBackgroundColor(Color.WHITE);
    chart.getStyler().setPlotBackgroundColor(Color.WHITE);
    chart.getStyler().setPlotGridLinesColor(new Color(0xdddddd));
    chart.getStyler().setMarkerSize(8);
  }

  private static void save(XYChart chart, Path file) {
    try {
      BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
