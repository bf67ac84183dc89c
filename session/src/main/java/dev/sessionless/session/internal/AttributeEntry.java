package dev.sessionless.session.internal;

/**
 * One attribute of a session: its recorded type, its value once read or set, and the JSON that is known to
 * be its value as long as the application never held it ({@link #json}).
 */
final class AttributeEntry {
  final String typeName;
  /** The class {@link #typeName} names, or {@code null} if this filter allows none. */
  final Class<?> type;
  Object value;
  boolean loaded;
  /**
   * The value's JSON as last read or written: bytes {@code [off, off + len)} of {@code json}.
   * Written as is while the application never held the value; otherwise the baseline an
   * in-place change is found against.
   */
  byte[] json;
  int off;
  int len;
  /** The application holds this (mutable) value: it may change without a setAttribute. */
  boolean handedOut;
  /** The value's JSON as of the last in-place check, or {@code null}. */
  byte[] current;
  /** The last in-place check found the value still writes {@link #json}: no need to serialise it again. */
  boolean checkedSame;
  /**
   * What the value held when it last matched {@link #json}, or {@code null}: while it still
   * holds the same objects, the in-place check need not serialise it.
   */
  Snapshot snapshot;
  /** Why the stored value did not read back (an exception's simple name), or {@code null}. */
  String failure;

  AttributeEntry(String typeName, Class<?> type) {
    this.typeName = typeName;
    this.type = type;
  }

  void json(byte[] bytes, int offset, int length) {
    json = bytes;
    off = offset;
    len = length;
  }

  /** Why this entry's stored value is unusable, for the log: never the value. */
  String problem(AttributeCodec codec) {
    if (type == null) {
      return "is not a type this filter allows (renamed, or no longer registered?)";
    }
    return "no longer reads back as that class (" + failure + "; was the class changed?)";
  }
}
