package dev.sessionless.webflux.internal;

import dev.sessionless.webflux.SessionTooLargeException;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.zip.Deflater;

/**
 * {@code WebSession.getAttributes()}: a map whose values are read from the token's JSON on first
 * use, whose {@code put} checks the value's type and the state budget before anything changes,
 * and which knows whether it changed (also in place: a value handed out is compared with its
 * JSON when the token is about to be written). Guarded by the session's lock.
 */
final class SessionAttributes extends AbstractMap<String, Object> {
  /** The state name of the session's own metadata; refused as an attribute name. */
  static final String META = "$sessionless";
  /** Bytes of metadata besides what each attribute adds, and what each attribute adds besides its name, tag and JSON. */
  private static final int META_BYTES = 48;
  private static final int PER_ATTRIBUTE = 10;

  /** One attribute: its tag and class, its value once read, and the JSON last read or written. */
  static final class Entry {
    final String tag;
    final Class<?> type;
    Object value;
    boolean loaded;
    /** The application may hold this mutable value: it may change without a put. */
    boolean handedOut;
    byte[] json;
    int off;
    int len;

    Entry(String tag, Class<?> type, byte[] json, int off, int len) {
      this.tag = tag;
      this.type = type;
      this.json = json;
      this.off = off;
      this.len = len;
    }
  }

  private final WebSettings settings;
  private final Object lock;
  final Map<String, Entry> entries = new LinkedHashMap<>(4);
  /** Changed by a put or remove since the last write. */
  boolean dirty;
  /** False once the session is invalidated: every change then throws. */
  boolean usable = true;

  SessionAttributes(WebSettings settings, Object lock) {
    this.settings = settings;
    this.lock = lock;
  }

  /** The value of {@code e}, read now if need be; {@code null} (and the entry dropped) if it no longer reads back. */
  private Object load(String name, Entry e) {
    if (!e.loaded) {
      try {
        e.value = e.type == null ? null : settings.attributes.read(e.type, e.json, e.off, e.len);
      } catch (RuntimeException ex) {
        e.value = null; // never logged: the message may quote the stored value
      }
      if (e.value == null) {
        entries.remove(name);
        dirty = true; // the next token leaves it out
        System.getLogger("dev.sessionless.webflux.SessionlessWebSessionManager").log(System.Logger.Level.WARNING,
            "session attribute '" + name + "' of recorded type " + e.tag + " no longer reads back (renamed,"
            + " changed or no longer registered?): dropped it from the session");
        return null;
      }
      e.loaded = true;
    }
    if (!AttributeTypes.immutable(e.type)) {
      e.handedOut = true;
    }
    return e.value;
  }

  @Override
  public Object get(Object key) {
    synchronized (lock) {
      Entry e = entries.get(key);
      return e == null ? null : load((String) key, e);
    }
  }

  @Override
  public boolean containsKey(Object key) {
    synchronized (lock) {
      return get(key) != null;
    }
  }

  @Override
  public int size() {
    synchronized (lock) {
      loadAll();
      return entries.size();
    }
  }

  private void loadAll() {
    for (String name : entries.keySet().toArray(new String[0])) {
      load(name, entries.get(name));
    }
  }

  @Override
  public Object put(String name, Object value) {
    synchronized (lock) {
      if (!usable) {
        throw new IllegalStateException("the session has been invalidated: its attributes cannot change");
      }
      if (name == null || value == null) {
        throw new IllegalArgumentException("session attribute names and values must not be null (remove() it)");
      }
      if (name.isEmpty() || name.length() > 256 || name.equals(META)) {
        throw new IllegalArgumentException("session attribute name '" + name + "' is not allowed: 1 to 256"
            + " characters, and not " + META);
      }
      String tag = settings.attributes.tag(name, value);
      byte[] json = settings.attributes.json(value);
      checkBudget(name, tag, json);
      Entry e = new Entry(tag, value.getClass(), json, 0, json.length);
      e.value = value;
      e.loaded = true;
      e.handedOut = !AttributeTypes.immutable(e.type);
      Entry old = entries.put(name, e);
      dirty = true;
      return old == null || !old.loaded ? null : old.value;
    }
  }

  @Override
  public Object remove(Object key) {
    synchronized (lock) {
      Entry old = entries.get(key);
      if (old == null) {
        return null;
      }
      if (!usable) {
        throw new IllegalStateException("the session has been invalidated: its attributes cannot change");
      }
      Object v = old.loaded ? old.value : null;
      entries.remove(key);
      dirty = true;
      return v;
    }
  }

  @Override
  public void clear() {
    synchronized (lock) {
      if (!entries.isEmpty()) {
        entries.clear();
        dirty = true;
      }
    }
  }

  @Override
  public Set<Map.Entry<String, Object>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public Iterator<Map.Entry<String, Object>> iterator() {
        Iterator<String> names;
        synchronized (lock) {
          loadAll();
          names = Arrays.asList(entries.keySet().toArray(new String[0])).iterator();
        }
        return new Iterator<>() {
          private String current;

          @Override
          public boolean hasNext() {
            return names.hasNext();
          }

          @Override
          public Map.Entry<String, Object> next() {
            current = names.next();
            String name = current;
            return new SimpleEntry<>(name, SessionAttributes.this.get(name)) {
              private static final long serialVersionUID = 1L;

              @Override
              public Object setValue(Object value) {
                super.setValue(value);
                return put(name, value);
              }
            };
          }

          @Override
          public void remove() {
            SessionAttributes.this.remove(current);
          }
        };
      }

      @Override
      public int size() {
        return SessionAttributes.this.size();
      }
    };
  }

  /** Refuses a put that would grow the state past the budget, before anything changes. */
  private void checkBudget(String name, String tag, byte[] json) {
    long size = META_BYTES + PER_ATTRIBUTE + name.length() + tag.length() + json.length;
    for (Map.Entry<String, Entry> e : entries.entrySet()) {
      if (!e.getKey().equals(name)) {
        size += PER_ATTRIBUTE + e.getKey().length() + e.getValue().tag.length() + e.getValue().len;
      }
    }
    if (size <= settings.budget || settings.compressed && deflated(name, json) <= settings.budget) {
      return;
    }
    throw new SessionTooLargeException(name, size, settings.budget, settings.budgetAdvice);
  }

  /** About how many bytes the state takes deflated, names and metadata counted plain. */
  private long deflated(String name, byte[] json) {
    Deflater d = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
    try {
      long plain = META_BYTES + PER_ATTRIBUTE + 2L * name.length();
      long packed = 0;
      for (Map.Entry<String, Entry> e : entries.entrySet()) {
        if (!e.getKey().equals(name)) {
          Entry v = e.getValue();
          plain += PER_ATTRIBUTE + 2L * e.getKey().length();
          d.setInput(v.json, v.off, v.len);
          packed += drain(d, false);
        }
      }
      d.setInput(json);
      return plain + packed + drain(d, true);
    } finally {
      d.end();
    }
  }

  private static long drain(Deflater d, boolean finish) {
    byte[] out = new byte[4096];
    long total = 0;
    if (finish) {
      d.finish();
      while (!d.finished()) {
        total += d.deflate(out);
      }
    } else {
      while (!d.needsInput()) {
        total += d.deflate(out, 0, out.length, Deflater.NO_FLUSH);
      }
    }
    return total;
  }

  /**
   * Whether a value the application may hold now writes other JSON than its baseline; the new
   * JSON becomes the baseline (it is what the next token carries).
   */
  boolean changedInPlace() {
    boolean changed = false;
    for (Entry e : entries.values()) {
      if (e.loaded && e.handedOut) {
        byte[] now = settings.attributes.json(e.value);
        if (!Arrays.equals(now, 0, now.length, e.json, e.off, e.off + e.len)) {
          e.json = now;
          e.off = 0;
          e.len = now.length;
          changed = true;
        }
      }
    }
    return changed;
  }
}
