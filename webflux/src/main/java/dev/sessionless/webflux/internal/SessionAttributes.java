package dev.sessionless.webflux.internal;

import dev.sessionless.session.internal.AttributeCodec;
import dev.sessionless.session.internal.AttributeEntry;
import dev.sessionless.session.internal.StoredState;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * {@code WebSession.getAttributes()}: a map whose values are read from the token's JSON on first
 * use, whose {@code put} checks the value's type, its round trip and the state budget before
 * anything changes (the servlet filter's rules, from the shared session module), and which knows
 * whether it changed, also in place: a value handed out is compared with its JSON when the token
 * is about to be written. Guarded by the session's lock.
 */
final class SessionAttributes extends AbstractMap<String, Object> {
  private final WebSettings settings;
  private final AttributeCodec codec;
  private final Object lock;
  final Map<String, AttributeEntry> entries = new LinkedHashMap<>(4);
  /** Changed by a put or remove since the last write. */
  boolean dirty;
  /** False once the session is invalidated: every change then throws. */
  boolean usable = true;

  SessionAttributes(WebSettings settings, Object lock) {
    this.settings = settings;
    this.codec = settings.attributes;
    this.lock = lock;
  }

  /** The value of {@code e}, read now if need be; {@code null} (and the entry dropped) if it no longer reads back. */
  private Object load(String name, AttributeEntry e) {
    if (!e.loaded) {
      try {
        e.value = e.type == null ? null : codec.read(e.type, e.json, e.off, e.len);
      } catch (RuntimeException ex) {
        e.failure = ex.getClass().getSimpleName(); // never the message: it may quote the stored value
      }
      if (e.value == null) {
        entries.remove(name);
        dirty = true; // the next token leaves it out
        settings.log.badAttribute(name, e.typeName, e.problem(codec), "dropped it from the session");
        return null;
      }
      e.loaded = true;
    }
    if (AttributeCodec.isMutable(e.type)) {
      e.handedOut = true;
    }
    return e.value;
  }

  @Override
  public Object get(Object key) {
    synchronized (lock) {
      AttributeEntry e = entries.get(key);
      return e == null ? null : load((String) key, e);
    }
  }

  @Override
  public boolean containsKey(Object key) {
    return get(key) != null;
  }

  @Override
  public int size() {
    synchronized (lock) {
      loadAll();
      return entries.size();
    }
  }

  /** Reads every value once: one that no longer reads back is dropped (and not written again). */
  void loadAll() {
    for (String name : entries.keySet().toArray(new String[0])) {
      load(name, entries.get(name));
    }
  }

  private void checkUsable() {
    if (!usable) {
      throw new IllegalStateException("the session has been invalidated: its attributes cannot change");
    }
  }

  @Override
  public Object put(String name, Object value) {
    synchronized (lock) {
      checkUsable();
      if (name == null || value == null) {
        throw new IllegalArgumentException("session attribute names and values must not be null (remove() it)");
      }
      if (name.isEmpty() || name.length() > 256 || name.equals(StoredState.META)) {
        throw new IllegalArgumentException("session attribute name '" + name + "' is not allowed: 1 to 256"
            + " characters, and not " + StoredState.META);
      }
      String typeName = codec.typeName(name, value);
      byte[] json = codec.checkedJson(name, value, typeName);
      settings.budget.check(name, json, typeName, entries);
      AttributeEntry e = new AttributeEntry(typeName, codec.resolve(typeName));
      e.json(json, 0, json.length);
      e.value = value;
      e.loaded = true;
      e.handedOut = AttributeCodec.isMutable(e.type); // the caller keeps its reference
      AttributeEntry old = entries.put(name, e);
      dirty = true;
      return old == null || !old.loaded ? null : old.value;
    }
  }

  @Override
  public Object remove(Object key) {
    synchronized (lock) {
      AttributeEntry old = entries.get(key);
      if (old == null) {
        return null;
      }
      checkUsable();
      entries.remove(key);
      dirty = true;
      return old.loaded ? old.value : null;
    }
  }

  @Override
  public void clear() {
    synchronized (lock) {
      if (!entries.isEmpty()) {
        checkUsable();
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

  /**
   * Whether a value the application may hold now writes other JSON than its baseline; the new
   * JSON becomes the baseline (it is what the next token carries).
   */
  boolean changedInPlace() {
    boolean changed = false;
    for (AttributeEntry e : entries.values()) {
      if (e.loaded && e.handedOut && !codec.writesSame(e.value, e.json, e.off, e.len)) {
        byte[] now = codec.json(e.value);
        if (now == null) {
          throw new IllegalStateException("session attribute '" + e.typeName + "' can no longer be written as JSON");
        }
        e.json(now, 0, now.length);
        changed = true;
      }
    }
    return changed;
  }
}
