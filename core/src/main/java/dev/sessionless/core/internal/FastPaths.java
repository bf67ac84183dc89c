package dev.sessionless.core.internal;

import java.lang.System.Logger.Level;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Which of the hand-written fast paths run, so an operator who suspects one can rule it out in
 * production without a new build: each has a plain path beside it (Jackson, zlib) that
 * gives the same result and stays in use for every input the fast path hands over.
 *
 * <p>Read once, from system properties, when this class loads (set them on the command line):
 * {@value #ALL_PROPERTY}{@code =off} turns every fast path off; {@value #PREFIX}{@code <name>=off}
 * one of them, by its {@link Path#property()} name. Each path that is off is logged once at INFO. Tests
 * flip the package-private fields instead of the properties.
 *
 * <p>Every hand-written path with a library path beside it is a {@link Path} here: {@code
 * FastClaims} (claims), {@code StateScanner} (state), {@code
 * FixedHuffman} (deflate) and the servlet filter's record writer and reader (records); each
 * class's comment gives its contract. Hand-written code without a switch, because no library path
 * does the same job: the strict base64url and UTF-8 checks ({@code Base64Url}, {@code Utf8}, the
 * SWAR helpers in {@code Words}), the header look-up ({@code HeaderIndex}: a header it does not
 * know goes to {@code HeaderParser}, Jackson), and {@code StateValues}, which a {@code
 * StateMapper} turns off by not answering {@code readsPlainly}.
 */
public final class FastPaths {
  /** Set to {@code off} to turn every fast path off. */
  public static final String ALL_PROPERTY = "dev.sessionless.fastpaths";
  /** The prefix of each path's own property. */
  public static final String PREFIX = "dev.sessionless.fastpath.";

  /** The fast paths, with what runs instead when one is off. */
  public enum Path {
    /** The byte-level claims reader ({@code FastClaims}); off: Jackson's streaming parser. */
    CLAIMS("claims", "Jackson's streaming parser reads every payload"),
    /** The state scanner and indexer ({@code StateScanner}); off: Jackson's streaming parser. */
    STATE("state", "Jackson's streaming parser checks and indexes every state"),
    /** The fixed-Huffman DEFLATE encoder ({@code FixedHuffman}); off: {@code java.util.zip.Deflater}. */
    DEFLATE("deflate", "java.util.zip.Deflater compresses every payload"),
    /**
     * The servlet filter's JSON writer and reader for plain attribute values and registered
     * records; off: the {@code StateMapper} (Jackson) writes, reads and compares them.
     */
    RECORDS("records", "the StateMapper writes and reads every session attribute");

    private final String name;
    private final String instead;

    Path(String name, String instead) {
      this.name = name;
      this.instead = instead;
    }

    /** The property that turns this path off: {@value #PREFIX} and its name. */
    public String property() {
      return PREFIX + name;
    }
  }

  private static final Set<Path> OFF = off(System::getProperty);

  static boolean claims = !OFF.contains(Path.CLAIMS);
  static boolean state = !OFF.contains(Path.STATE);
  static boolean deflate = !OFF.contains(Path.DEFLATE);
  static boolean records = !OFF.contains(Path.RECORDS);

  static {
    System.Logger log = System.getLogger(FastPaths.class.getName());
    for (Path p : OFF) {
      log.log(Level.INFO, "Sessionless fast path ''{0}'' is off ({1}=off or {2}=off): {3}",
          p.name, p.property(), ALL_PROPERTY, p.instead);
    }
  }

  private FastPaths() {}

  /** The paths these properties turn off. */
  static Set<Path> off(UnaryOperator<String> properties) {
    Set<Path> off = EnumSet.noneOf(Path.class);
    boolean all = isOff(properties.apply(ALL_PROPERTY));
    for (Path p : Path.values()) {
      if (all || isOff(properties.apply(p.property()))) {
        off.add(p);
      }
    }
    return off;
  }

  private static boolean isOff(String value) {
    if (value == null) {
      return false;
    }
    String v = value.strip().toLowerCase(Locale.ROOT);
    return v.equals("off") || v.equals("false") || v.equals("plain");
  }

  /** Whether {@code path} runs (read once at class load; tests may flip it). */
  public static boolean on(Path path) {
    switch (path) {
      case CLAIMS:
        return claims;
      case STATE:
        return state;
      case DEFLATE:
        return deflate;
      default:
        return records;
    }
  }

  /**
   * Turns {@code path} on or off in this JVM and returns what it was: for tests that run the
   * same checks in both modes (restore it in a {@code finally}). Not for production: there the
   * properties decide, once.
   */
  public static boolean set(Path path, boolean on) {
    boolean was = on(path);
    switch (path) {
      case CLAIMS:
        claims = on;
        break;
      case STATE:
        state = on;
        break;
      case DEFLATE:
        deflate = on;
        break;
      default:
        records = on;
    }
    return was;
  }
}
