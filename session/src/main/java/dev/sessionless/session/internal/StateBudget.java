package dev.sessionless.session.internal;

import dev.sessionless.core.SessionTooLargeException;
import java.util.Map;
import java.util.zip.Deflater;

/**
 * The most session state the application may set, checked at {@code setAttribute} so that a
 * session grown past what its carrier can take (often from client-supplied text: a saved URL,
 * an error message) fails there, naming the attribute, instead of when the token is written.
 * The size is the state as the token stores it: each attribute's name and JSON plus the
 * metadata that lists it. When the codec compresses and the plain size is over the budget, the
 * state is deflated once to see whether it still fits (an estimate: the written token is checked
 * again, exactly). Thread-safe and immutable.
 */
public final class StateBudget {
  /** Bytes of metadata besides what each attribute adds ({@code {"c":...,"m":...,"t":{}}}). */
  static final int META_BYTES = 48;
  /** Bytes each attribute adds besides its name, JSON and tag: quotes, colons and commas, twice. */
  static final int PER_ATTRIBUTE = 10;

  private final long budget;
  private final boolean compressed;
  private final String advice;

  /**
   * A budget of {@code budget} bytes of state.
   *
   * @param compressed whether tokens are compressed (a state over the budget may still fit)
   * @param advice what to tell the developer, for the message
   */
  public StateBudget(long budget, boolean compressed, String advice) {
    this.budget = budget;
    this.compressed = compressed;
    this.advice = advice;
  }

  /** The budget in bytes of state. */
  public long bytes() {
    return budget;
  }

  /**
   * Checks the state {@code entries} would have with {@code name} set to {@code json} (tagged
   * {@code tag}).
   *
   * @throws SessionTooLargeException if it is over the budget
   */
  void check(String name, byte[] json, String tag, Map<String, AttributeEntry> entries) {
    long size = META_BYTES + PER_ATTRIBUTE + name.length() + tag.length() + json.length;
    for (Map.Entry<String, AttributeEntry> e : entries.entrySet()) {
      if (!e.getKey().equals(name)) {
        size += PER_ATTRIBUTE + e.getKey().length() + e.getValue().typeName.length() + e.getValue().len;
      }
    }
    if (size <= budget) {
      return;
    }
    if (compressed && deflated(name, json, entries) <= budget) {
      return;
    }
    throw new SessionTooLargeException(name, size, budget, advice);
  }

  /** About how many bytes the state's values take deflated, metadata included as plain bytes. */
  private static long deflated(String name, byte[] json, Map<String, AttributeEntry> entries) {
    Deflater d = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
    try {
      long metaAndNames = META_BYTES;
      byte[] out = new byte[4096];
      long total = 0;
      d.setInput(json);
      metaAndNames += PER_ATTRIBUTE + 2L * name.length();
      for (Map.Entry<String, AttributeEntry> e : entries.entrySet()) {
        if (e.getKey().equals(name)) {
          continue;
        }
        while (!d.needsInput()) {
          total += d.deflate(out, 0, out.length, Deflater.NO_FLUSH);
        }
        AttributeEntry v = e.getValue();
        d.setInput(v.json, v.off, v.len);
        metaAndNames += PER_ATTRIBUTE + 2L * e.getKey().length();
      }
      d.finish();
      while (!d.finished()) {
        total += d.deflate(out);
      }
      return total + metaAndNames;
    } finally {
      d.end();
    }
  }
}
