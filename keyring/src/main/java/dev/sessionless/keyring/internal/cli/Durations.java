package dev.sessionless.keyring.internal.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses durations such as {@code 30m}, {@code 24h}, {@code 7d}, {@code 1h30m} or ISO-8601 {@code PT24H}. */
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

  private static UsageException bad(String flag, String text) {
    return new UsageException(flag + " takes a duration such as 30m, 24h or 7d, not '" + text + "'");
  }
}
