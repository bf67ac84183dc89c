package dev.sessionless.session.internal;

import java.util.Arrays;
import java.util.Collection;
import java.util.Map;

/**
 * What an attribute value handed to the application was made of: every object reachable from
 * it, in the order Jackson writes them, the ones that can change by identity, the immutable ones
 * by equality, and records' primitive components by value. If the value still holds the same
 * objects in the same places, its JSON cannot have changed, and the in-place check skips the
 * serialisation that would otherwise tell.
 *
 * <p>Only values whose JSON is a function of what they hold are taken: immutable JDK values
 * and enums without mutable state (leaves), records (their components, read through their
 * accessors), and {@code java.util} collections and maps of such (see {@link ValueWalker}).
 * Anything else (a bean with setters, an array, a collection of the application's own class)
 * has no snapshot, and the value is compared as JSON, as before. A snapshot never says
 * "unchanged" for a value that changed: replacing an element, adding, removing or reordering
 * one, or changing anything nested changes what is seen; it may say "changed" for a value whose
 * JSON did not (an element replaced by an equal record), and then the JSON decides.
 *
 * <p>Not thread-safe: taken and checked under the session's lock.
 */
final class Snapshot implements ValueWalker.Sink {
  /** Marks the end of a collection's or map's elements, so nesting is part of what is compared. */
  static final Object END = new Object();
  /** The most objects (and, apart, primitive components) one snapshot records; a larger value is compared as JSON. */
  static final int MAX_OBJECTS = 4096;
  /** The deepest nesting walked; deeper values (or cycles) are compared as JSON. */
  static final int MAX_DEPTH = 64;

  /** What was seen, in walk order; sized for a small value and grown as needed. */
  private Object[] seen = new Object[16];
  private int length;
  /** Records' primitive components, in walk order; {@code null} until there is one. */
  private long[] bits;
  private int bitsLength;
  /** Set while {@link #unchanged} walks: the sink compares instead of recording. */
  private boolean checking;
  private int position;
  private int bitsPosition;

  private Snapshot() {}

  /**
   * The snapshot of {@code value}, or {@code null} if it holds something this cannot vouch for
   * (then the caller compares JSON).
   */
  static Snapshot of(Object value, ValueWalker walker) {
    Snapshot s = new Snapshot();
    try {
      if (!walker.walk(value, s, 0)) {
        return null;
      }
    } catch (RuntimeException e) {
      return null; // an accessor that throws, a collection changed meanwhile: JSON decides
    }
    return s;
  }

  /**
   * Whether {@code value} still holds exactly what it held when this was taken; {@code false}
   * when it may have changed (the JSON then decides).
   */
  boolean unchanged(Object value, ValueWalker walker) {
    checking = true;
    position = 0;
    bitsPosition = 0;
    try {
      return walker.walk(value, this, 0) && position == length && bitsPosition == bitsLength;
    } catch (RuntimeException e) {
      return false;
    } finally {
      checking = false;
    }
  }

  @Override
  public boolean accept(Object o) {
    if (checking) {
      if (position >= length || seen[position] != o) {
        return false;
      }
      position++;
      return true;
    }
    if (length == seen.length) {
      if (length >= MAX_OBJECTS) {
        return false;
      }
      seen = Arrays.copyOf(seen, Math.min(MAX_OBJECTS, length * 2));
    }
    seen[length++] = o;
    return true;
  }

  @Override
  public boolean acceptLeaf(Object o) {
    if (!checking) {
      return accept(o);
    }
    if (position >= length) {
      return false;
    }
    Object was = seen[position];
    // An immutable value equal to the one seen writes the same JSON (a String an accessor
    // builds anew, a boxed number): equal classes only, so 1 and 1L never match.
    if (was != o && (was == null || o == null || was.getClass() != o.getClass() || !was.equals(o))) {
      return false;
    }
    position++;
    return true;
  }

  @Override
  public boolean acceptBits(long b) {
    if (checking) {
      if (bitsPosition >= bitsLength || bits[bitsPosition] != b) {
        return false;
      }
      bitsPosition++;
      return true;
    }
    if (bits == null) {
      bits = new long[8];
    } else if (bitsLength == bits.length) {
      if (bitsLength >= MAX_OBJECTS) {
        return false;
      }
      bits = Arrays.copyOf(bits, Math.min(MAX_OBJECTS, bitsLength * 2));
    }
    bits[bitsLength++] = b;
    return true;
  }

  /** For tests: how many objects (and primitive components) were recorded. */
  int size() {
    return length + bitsLength;
  }

  /** The walk over one value, shared by recording and checking so the two can never differ. */
  static boolean walkContainer(Object value, ValueWalker.Sink sink, ValueWalker walker, int depth) {
    if (value instanceof Map) {
      for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
        if (!walker.walk(e.getKey(), sink, depth + 1) || !walker.walk(e.getValue(), sink, depth + 1)) {
          return false;
        }
      }
      return sink.accept(END);
    }
    for (Object o : (Collection<?>) value) {
      if (!walker.walk(o, sink, depth + 1)) {
        return false;
      }
    }
    return sink.accept(END);
  }
}
