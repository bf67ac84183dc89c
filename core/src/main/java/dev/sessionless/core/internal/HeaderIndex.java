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

  private static final java.lang.invoke.VarHandle INT =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(int[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

  /** Every byte, read four at a time: a quarter of the multiply chain of a byte-wise hash. */
  private static int hash(byte[] b, int from, int to) {
    int h = to - from;
    int i = from;
    for (; i + 4 <= to; i += 4) {
      h = 31 * h + (int) INT.get(b, i);
    }
    for (; i < to; i++) {
      h = 31 * h + b[i];
    }
    return h ^ (h >>> 16);
  }
}
