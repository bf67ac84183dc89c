package dev.sessionless.keyring.internal.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses and prints durations such as {@code 30m}, {@code 24h}, {@code 7d}, {@code 1h30m} or ISO-8601 {@code PT24H}. */
final class Durations {
  private static final Pattern PART = Pattern.compile("(\\d{1,9})([smhd])");
  private static final Pattern WHOLE = Pattern.compile("(?:\\d{1,9}[smhd])+");

  private Durations() {}

  /**
   * The duration {@code text} names; never negative.
   *
   * @throws UsageException if it is not a duration
   */
  static Duration parse(String flag, String text) {
    if (text.startsWith("P") || text.startsWith("p")) {
      try {
        Duration d = Duration.parse(text);
        if (d.isNegative()) {
          throw new UsageException(flag + " must not be negative");
        }
        return d;
      } catch (DateTimeParseException e) {
        throw bad(flag, text);
      }
    }
    if (!WHOLE.matcher(text).matches()) {
      throw bad(flag, text);
    }
    Duration total = Duration.ZERO;
    Matcher m = PART.matcher(text);
    while (m.find()) {
      long n = Long.parseLong(m.group(1));
      switch (m.group(2)) {
        case "s":
          total = total.plusSeconds(n);
          break;
        case "m":
          total = total.plusMinutes(n);
          break;
        case "h":
          total = total.plusHours(n);
          break;
        default:
          total = total.plusDays(n);
      }
    }
    return total;
  }

  /** A duration as people write it: {@code 15s}, {@code 1m30s}, {@code 2.5s}. */
  static String show(Duration d) {
    if (d.isNegative()) {
      return "-" + show(d.negated());
    }
    long s = d.getSeconds();
    int millis = d.getNano() / 1_000_000;
    StringBuilder sb = new StringBuilder();
    if (s >= 3600) {
      sb.append(s / 3600).append('h');
      s %= 3600;
    }
    if (s >= 60) {
      sb.append(s / 60).append('m');
      s %= 60;
    }
    if (s > 0 || millis > 0 || sb.length() == 0) {
      sb.append(s);
      if (millis > 0) {
        sb.append('.').append(String.format(Locale.ROOT, "%03d", millis).replaceAll("0+$", ""));
      }
      sb.append('s');
    }
    return sb.toString();
  }

  private static UsageException bad(String flag, String text) {
    return new UsageException(flag + " takes a duration such as 30m, 24h or 7d, not '" + text + "'");
  }
}
