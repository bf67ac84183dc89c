package dev.sessionless.core.internal;

import java.util.Arrays;
import java.util.List;

/**
 * Recognises a token's header segment by comparing its encoded bytes with the few headers a
 * key set produces itself, so the usual header is never decoded or parsed. Immutable.
 *
 * @param <K> the key type
 */
public final class HeaderIndex<K> {
  /** One header this key set writes, and what it means. */
  public static final class Entry<K> {
    final byte[] encoded;
    /** The key the header names. */
    public final K key;
    /** The header's {@code zip}: the ordinal of a {@code Compression} (0, none; 1, {@code DEF}; 2, {@code SLD1}). */
    public final int zip;

    /** A header and its meaning. */
    public Entry(byte[] encoded, K key, int zip) {
      this.encoded = encoded;
      this.key = key;
      this.zip = zip;
    }
  }

  private final Entry<K>[] table;
  private final int mask;

  /** Builds the index from every header the key set writes. */
  @SuppressWarnings("unchecked")
  public HeaderIndex(List<Entry<K>> entries) {
    int size = Integer.highestOneBit(Math.max(4, entries.size() * 4) - 1) << 1;
    table = new Entry[size];
    mask = size - 1;
    for (Entry<K> e : entries) {
      int i = hash(e.encoded, 0, e.encoded.length) & mask;
      while (table[i] != null) {
        i = (i + 1) & mask;
      }
      table[i] = e;
    }
  }

  /** The entry whose encoded header is exactly {@code b[from, to)}, or {@code null}. */
  public Entry<K> find(byte[] b, int from, int to) {
    int i = hash(b, from, to) & mask;
    Entry<K> e;
    while ((e = table[i]) != null) {
      if (Arrays.equals(e.encoded, 0, e.encoded.length, b, from, to)) {
        return e;
      }
      i = (i + 1) & mask;
    }
    return null;
  }

  private static final java.lang.invoke.VarHandle LONG =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
  private static final long MIX = 0x9E3779B97F4A7C15L;

  /**
   * The length and three eight-byte reads (the start, the middle, the end, where a key id and a
   * zip header differ): three multiplies for any header. Headers alike in all of those share a
   * probe chain, and {@link #find} still compares every byte, so a collision costs a probe,
   * never a wrong answer; the table holds only the key set's own few headers.
   */
  private static int hash(byte[] b, int from, int to) {
    int n = to - from;
    if (n < Long.BYTES) {
      int h = n;
      for (int i = from; i < to; i++) {
        h = 31 * h + b[i];
      }
      return h ^ (h >>> 16);
    }
    long x = ((long) LONG.get(b, from) ^ n) * MIX;
    x = (x ^ (long) LONG.get(b, from + (n >>> 1) - Long.BYTES / 2)) * MIX;
    x = (x ^ (long) LONG.get(b, to - Long.BYTES)) * MIX;
    return (int) (x ^ (x >>> 32));
  }
}
