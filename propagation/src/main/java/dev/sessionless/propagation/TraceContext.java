package dev.sessionless.propagation;

import dev.sessionless.core.internal.SeededRandom;
import java.util.Objects;
import java.util.Optional;

/**
 * A W3C Trace Context {@code traceparent}: the trace id one user journey shares across
 * services, the id of the calling span, and the flags.
 *
 * <p>{@link #parse(String)} is strict (version {@code 00} exactly as the spec writes it, lower
 * case hex, ids not all zero, version {@code ff} refused; a later version is read by its first
 * four fields as the spec asks); anything else is absent, and the receiving filters then start
 * a new trace ({@link #newTrace()}). For every outgoing call a service makes a {@link #child()}:
 * the same trace id and flags, a new span id.
 *
 * <p>New ids come from core's once-seeded DRBG, which reads no file when it is drawn on (a new
 * trace or span id is made on a WebFlux event loop).
 *
 * <p>Immutable and thread-safe. Spec: W3C Trace Context Level 1, section 3.2.
 */
public final class TraceContext {
  /** The header name. */
  public static final String HEADER = "traceparent";
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private final String traceId;
  private final String spanId;
  private final String flags;

  private TraceContext(String traceId, String spanId, String flags) {
    this.traceId = traceId;
    this.spanId = spanId;
    this.flags = flags;
  }

  /**
   * Reads a {@code traceparent} header value strictly.
   *
   * @return the trace context, or empty if the value is absent or not valid
   */
  public static Optional<TraceContext> parse(String header) {
    if (header == null) {
      return Optional.empty();
    }
    String h = header.trim();
    if (h.length() < 55 || !hex(h, 0, 2) || h.charAt(2) != '-' || !hex(h, 3, 35) || h.charAt(35) != '-'
        || !hex(h, 36, 52) || h.charAt(52) != '-' || !hex(h, 53, 55)) {
      return Optional.empty();
    }
    String version = h.substring(0, 2);
    if (version.equals("ff") || (version.equals("00") && h.length() != 55)
        || (!version.equals("00") && h.length() > 55 && h.charAt(55) != '-')) {
      return Optional.empty();
    }
    String traceId = h.substring(3, 35);
    String spanId = h.substring(36, 52);
    if (zeros(traceId) || zeros(spanId)) {
      return Optional.empty();
    }
    return Optional.of(new TraceContext(traceId, spanId, h.substring(53, 55)));
  }

  /** A new trace: random trace and span ids, sampled. */
  public static TraceContext newTrace() {
    return new TraceContext(random(16), random(8), "01");
  }

  /** The context for a call made from this span: the same trace id and flags, a new span id. */
  public TraceContext child() {
    return new TraceContext(traceId, random(8), flags);
  }

  /** The trace id: 32 lower-case hex digits, shared by every service on one journey. */
  public String traceId() {
    return traceId;
  }

  /** The span id (the spec's parent-id): 16 lower-case hex digits. */
  public String spanId() {
    return spanId;
  }

  /** Whether the sampled flag is set. */
  public boolean sampled() {
    return (Character.digit(flags.charAt(1), 16) & 1) == 1;
  }

  /** The header value, version {@code 00}. */
  public String header() {
    return "00-" + traceId + "-" + spanId + "-" + flags;
  }

  /** The header value. */
  @Override
  public String toString() {
    return header();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TraceContext && ((TraceContext) o).header().equals(header());
  }

  @Override
  public int hashCode() {
    return Objects.hash(traceId, spanId, flags);
  }

  private static boolean hex(String s, int from, int to) {
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
        return false;
      }
    }
    return true;
  }

  private static boolean zeros(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) != '0') {
        return false;
      }
    }
    return true;
  }

  private static String random(int bytes) {
    byte[] b = new byte[bytes];
    do {
      SeededRandom.nextBytes(b); // core's seeded DRBG: no file read on an event loop
    } while (allZero(b));
    char[] c = new char[bytes * 2];
    for (int i = 0; i < bytes; i++) {
      c[2 * i] = HEX[(b[i] >> 4) & 0xf];
      c[2 * i + 1] = HEX[b[i] & 0xf];
    }
    return new String(c);
  }

  private static boolean allZero(byte[] b) {
    for (byte x : b) {
      if (x != 0) {
        return false;
      }
    }
    return true;
  }
}
