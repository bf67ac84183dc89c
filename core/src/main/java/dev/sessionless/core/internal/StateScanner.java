package dev.sessionless.core.internal;

import java.util.Arrays;

/**
 * The fast way to index a token's state: one pass over its bytes that finds where each top-level
 * member's name and value sit, and checks what {@link StateIndex}'s Jackson path checks (no
 * member name twice in any object, no unpaired surrogate escape, a top-level name Claims would
 * take), without building a map or a string.
 *
 * <p>Security note: like {@link FastClaims}, this class never rejects anything. It either reads
 * the whole state and answers its layout, or answers {@code null} and the caller indexes the
 * state with Jackson, which decides and words any rejection. Its one duty is never to accept
 * what the Jackson path refuses, and it keeps that duty simple by accepting little:
 *
 * <ul>
 *   <li>member names without escapes (compared as their UTF-8 bytes, which the caller checked
 *       are well-formed, so equal bytes are equal names and vice versa);
 *   <li>at most {@link #MAX_MEMBERS} members in one object (names are compared pairwise);
 *   <li>nesting to {@link #MAX_DEPTH} (the state object itself is 1);
 *   <li>RFC 8259 grammar, whitespace allowed between tokens; numbers of at most 64 characters.
 * </ul>
 *
 * A differential test runs both over mutated states and fails if this one accepts anything the
 * Jackson path refuses, or finds other spans.
 *
 * <p>Switch: {@code -Ddev.sessionless.fastpath.state=off} ({@link FastPaths.Path#STATE}); then
 * {@link StateIndex}'s Jackson path indexes every state on first read, and {@link FastClaims}
 * checks the state's grammar with its own validator while it reads the payload.
 */
final class StateScanner {
  /** The most members of one object this scanner compares pairwise before handing over. */
  static final int MAX_MEMBERS = 64;
  /** The deepest nesting this scanner follows (the state object itself is 1). */
  static final int MAX_DEPTH = 16;
  private static final int MAX_NUMBER_CHARS = 64;
  private static final Pool<StateScanner> POOL = new Pool<>(StateScanner::new);


  /** Name spans {@code [start, end)} of the objects being read, innermost last. */
  private int[] names = new int[128];
  private int sp;
  /** Per top-level member: name start, name end, value start, value end. */
  private int[] top = new int[32];
  private int members;
  private byte[] b;
  private int n;

  private StateScanner() {}

  /**
   * The layout of the state object {@code json}: per top-level member, in order, the offsets
   * of its name (inside the quotes) and of its value, four ints each.
   *
   * @return the layout, or {@code null} when the Jackson path must index the state
   */
  static int[] scan(byte[] json) {
    StateScanner s = POOL.take();
    try {
      return s.run(json);
    } finally {
      s.clear();
      POOL.give(s);
    }
  }

  /**
   * Scans the state object that opens at {@code payload[from]} inside a payload whose closing
   * brace is at {@code limit}, as {@link FastClaims} meets it: the one pass both validates the
   * state and indexes it, so a decoded token carries its index and a read scans nothing again.
   * On success sets {@code out.stateLayout}, with offsets relative to {@code from} (that is, into
   * the state's own bytes once copied out).
   *
   * @return the index after the state object, or -1 when this scanner hands over ({@code out}
   *     untouched); the caller then validates the state its own way and the state is indexed
   *     on first read, by the Jackson path where need be
   */
  static int scanEmbedded(byte[] payload, int from, int limit, ParsedClaims out) {
    StateScanner s = out.scanner;
    if (s == null) {
      s = new StateScanner();
      out.scanner = s;
    }
    try {
      s.b = payload;
      s.n = limit;
      s.sp = 0;
      s.members = 0;
      int e = s.object(from, 1, true);
      if (e < 0) {
        return -1;
      }
      int[] layout = Arrays.copyOf(s.top, s.members * 4);
      for (int k = 0; k < layout.length; k++) {
        layout[k] -= from;
      }
      out.stateLayout = layout;
      return e;
    } finally {
      s.clear();
    }
  }

  /** Lets go of the bytes read and of arrays that grew large. */
  private void clear() {
    b = null;
    if (names.length > 1024) {
      names = new int[128];
    }
    if (top.length > 1024) {
      top = new int[32];
    }
  }

  private int[] run(byte[] json) {
    b = json;
    n = json.length;
    sp = 0;
    members = 0;
    int i = ws(0);
    if (i >= n || b[i] != '{') {
      return null;
    }
    i = object(i, 1, true);
    if (i < 0 || ws(i) != n) {
      return null;
    }
    return Arrays.copyOf(top, members * 4);
  }

  private int ws(int i) {
    if (i < n && b[i] > ' ') {
      return i; // the common case: no whitespace (every whitespace byte is at most ' ')
    }
    while (i < n) {
      byte c = b[i];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return i;
      }
      i++;
    }
    return i;
  }

  /** The object at {@code i} (its opening brace); the index after it, or -1 to hand over. */
  private int object(int i, int depth, boolean topLevel) {
    if (depth > MAX_DEPTH) {
      return -1;
    }
    int mark = sp;
    int count = 0;
    i = ws(i + 1);
    if (i < n && b[i] == '}') {
      return i + 1;
    }
    while (true) {
      if (i >= n || b[i] != '"') {
        return -1;
      }
      int ns = i + 1;
      int after = name(ns);
      if (after < 0 || ++count > MAX_MEMBERS) {
        return -1;
      }
      int ne = after - 1;
      for (int k = mark; k < sp; k += 2) {
        if (sameBytes(names[k], names[k + 1], ns, ne)) {
          return -1; // a duplicate: the Jackson path refuses it with its reason
        }
      }
      if (topLevel && !acceptableTopName(ns, ne)) {
        return -1;
      }
      push(ns, ne);
      i = ws(after);
      if (i >= n || b[i] != ':') {
        return -1;
      }
      i = ws(i + 1);
      if (i >= n) {
        return -1;
      }
      int vs = i;
      i = value(i, depth);
      if (i < 0) {
        return -1;
      }
      if (topLevel) {
        record(ns, ne, vs, i);
      }
      i = ws(i);
      if (i >= n) {
        return -1;
      }
      if (b[i] == '}') {
        sp = mark;
        return i + 1;
      }
      if (b[i] != ',') {
        return -1;
      }
      i = ws(i + 1);
    }
  }

  private int array(int i, int depth) {
    if (depth > MAX_DEPTH) {
      return -1;
    }
    i = ws(i + 1);
    if (i < n && b[i] == ']') {
      return i + 1;
    }
    while (true) {
      if (i >= n) {
        return -1;
      }
      i = value(i, depth);
      if (i < 0) {
        return -1;
      }
      i = ws(i);
      if (i >= n) {
        return -1;
      }
      if (b[i] == ']') {
        return i + 1;
      }
      if (b[i] != ',') {
        return -1;
      }
      i = ws(i + 1);
    }
  }

  /** A value at {@code i} (not whitespace, before the end) inside a container of {@code depth}. */
  private int value(int i, int depth) {
    switch (b[i]) {
      case '{':
        return object(i, depth + 1, false);
      case '[':
        return array(i, depth + 1);
      case '"':
        return JsonScan.string(b, i + 1, n, true);
      case 't':
      case 'f':
      case 'n':
        return JsonScan.literal(b, i, n);
      default:
        return JsonScan.number(b, i, n, MAX_NUMBER_CHARS);
    }
  }

  /** A member name from {@code i} (after its opening quote) to its closing quote; no escapes. */
  private int name(int i) {
    for (int j = Words.skipStringContent(b, i, n); j < n; j++) {
      int c = b[j];
      if (c == '"') {
        return j + 1;
      }
      if ((c >= 0 && c < 0x20) || c == '\\') {
        return -1;
      }
    }
    return -1;
  }

  /** Whether Claims.Builder#put would take this name: 1 to 256 UTF-16 chars. */
  private boolean acceptableTopName(int from, int to) {
    int bytes = to - from;
    if (bytes == 0) {
      return false;
    }
    if (bytes <= StateIndex.MAX_NAME) {
      return true; // never more chars than bytes
    }
    int chars = 0;
    for (int k = from; k < to; k++) {
      int c = b[k] & 0xff;
      if ((c & 0xC0) != 0x80) {
        chars += c >= 0xF0 ? 2 : 1; // a four-byte sequence is a surrogate pair in UTF-16
      }
    }
    return chars <= StateIndex.MAX_NAME;
  }

  private boolean sameBytes(int s1, int e1, int s2, int e2) {
    return e1 - s1 == e2 - s2 && Arrays.equals(b, s1, e1, b, s2, e2);
  }

  private void push(int start, int end) {
    if (sp + 2 > names.length) {
      names = Arrays.copyOf(names, names.length * 2);
    }
    names[sp++] = start;
    names[sp++] = end;
  }

  private void record(int ns, int ne, int vs, int ve) {
    int k = members * 4;
    if (k + 4 > top.length) {
      top = Arrays.copyOf(top, top.length * 2);
    }
    top[k] = ns;
    top[k + 1] = ne;
    top[k + 2] = vs;
    top[k + 3] = ve;
    members++;
  }
}
