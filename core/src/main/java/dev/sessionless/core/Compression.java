package dev.sessionless.core;

/**
 * How a token's payload is compressed: before encryption in an encrypted token ({@code
 * DIR_A256GCM}), as RFC 7516's {@code zip} means, or before signing in a signed one (an extension
 * that only a codec with {@code acceptCompressedSignedTokens} reads). Every codec reads {@code DEF}
 * and {@code SLD1} whatever it writes, so a fleet can change what it writes one node at a time.
 */
public enum Compression {
  /** Not compressed: no {@code zip} header member. */
  NONE(null),
  /**
   * {@code zip: DEF}, raw DEFLATE (RFC 7516): the standard kind, which every JOSE library
   * (jose4j, Nimbus) inflates. See {@link TokenCodec.Builder#compress(boolean)}.
   */
  DEFLATE("DEF"),
  /**
   * {@code zip: SLD1}, raw DEFLATE with a preset dictionary of the names every session token
   * repeats (the registered claims, the state claim, the servlet filter's session metadata, and
   * JSON's punctuation around them): 10–20% fewer bytes than {@link #DEFLATE} on a session of a
   * few hundred bytes. {@code SLD1} is Sessionless's own {@code zip} value, not a registered one:
   * only Sessionless reads these tokens (other JOSE libraries refuse the unknown {@code zip}),
   * which suits a session cookie that only the key holders can read. The format, the exact
   * dictionary (fixed for as long as {@code SLD1} exists), the limits and a worked example are
   * specified in {@code docs/SLD1.md} of the source repository, for readers that do not use this
   * code.
   */
  DEFLATE_WITH_DICTIONARY("SLD1");

  private final String zip;

  Compression(String zip) {
    this.zip = zip;
  }

  /** The {@code zip} header value this kind writes; {@code null} for {@link #NONE}. */
  public String zipValue() {
    return zip;
  }

  /**
   * The kind named {@code name}, as a configuration writes it: {@code none}, {@code deflate},
   * {@code deflate-with-dictionary}, in any case, with {@code -} or {@code _}.
   *
   * @throws IllegalArgumentException if no kind has that name
   */
  public static Compression fromName(String name) {
    String n = name.trim().replace('-', '_');
    for (Compression c : values()) {
      if (c.name().equalsIgnoreCase(n)) {
        return c;
      }
    }
    throw new IllegalArgumentException("compression must be none, deflate or deflate-with-dictionary, got '"
        + name + "'");
  }

  /** The kind a token's {@code zip} header value names ({@link #NONE} for none); {@code null} if none does. */
  static Compression forZip(String zip) {
    if (zip == null) {
      return NONE;
    }
    for (Compression c : values()) {
      if (zip.equals(c.zip)) {
        return c;
      }
    }
    return null;
  }
}
