package dev.sessionless.servlet.internal;

import dev.sessionless.core.SessionToken;
import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpSession;
import jakarta.servlet.http.HttpSessionBindingEvent;
import jakarta.servlet.http.HttpSessionBindingListener;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An {@link HttpSession} backed by a token: attribute values are read from the token on first
 * use and written back as JSON. Lives for one request (and its dispatches). Thread-safe (Servlet
 * 6.0, 7.7.1): every method holds the lock of its {@link RequestSession}, the same lock the
 * token is written under, so an async application may use it from several threads; binding
 * listeners are called holding it.
 */
final class TokenHttpSession implements HttpSession {
  /** One attribute: its recorded type, and its value once read or set. */
  static final class Entry {
    final String typeName;
    Object value;
    boolean loaded;
    /** JSON last written or read, for detecting in-place changes; {@code null} if immutable. */
    byte[] baseline;
    /** Why the stored value did not read back (an exception's simple name), or {@code null}. */
    String failure;

    Entry(String typeName) {
      this.typeName = typeName;
    }

    /** Why this entry's stored value is unusable, for the log: never the value. */
    String problem(AttributeCodec codec) {
      if (codec.resolve(typeName) == null) {
        return "is not a type this filter allows (renamed, or no longer registered?)";
      }
      return "no longer reads back as that class (" + failure + "; was the class changed?)";
    }
  }

  private final RequestSession owner;
  private final AttributeCodec codec;
  private final ServletContext context;
  final SessionToken token;
  String id;
  final long created;
  final long lastAccessed;
  int maxInactive;
  final boolean isNew;
  boolean valid = true;
  /** Changed by the application since the last write (attributes, id, max-inactive). */
  boolean dirty;
  final Map<String, Entry> entries = new LinkedHashMap<>();

  TokenHttpSession(RequestSession owner, AttributeCodec codec, ServletContext context,
      SessionToken token, String id, long created, long lastAccessed, int maxInactive, boolean isNew) {
    this.owner = owner;
    this.codec = codec;
    this.context = context;
    this.token = token;
    this.id = id;
    this.created = created;
    this.lastAccessed = lastAccessed;
    this.maxInactive = maxInactive;
    this.isNew = isNew;
  }

  private void checkValid(String method) {
    if (!valid) {
      throw new IllegalStateException(method + ": the session has been invalidated");
    }
  }

  @Override
  public long getCreationTime() {
    synchronized (owner) {
      checkValid("getCreationTime");
      return created;
    }
  }

  @Override
  public String getId() {
    synchronized (owner) {
      return id;
    }
  }

  @Override
  public long getLastAccessedTime() {
    synchronized (owner) {
      checkValid("getLastAccessedTime");
      return lastAccessed;
    }
  }

  @Override
  public ServletContext getServletContext() {
    return context;
  }

  @Override
  public void setMaxInactiveInterval(int interval) {
    synchronized (owner) {
      if (interval != maxInactive) {
        maxInactive = interval;
        dirty = true;
      }
    }
  }

  @Override
  public int getMaxInactiveInterval() {
    synchronized (owner) {
      return maxInactive;
    }
  }

  @Override
  public Object getAttribute(String name) {
    synchronized (owner) {
      checkValid("getAttribute");
      Entry e = entries.get(name);
      if (e == null) {
        return null;
      }
      return load(name, e);
    }
  }

  private Object load(String name, Entry e) {
    if (!e.loaded && !read(name, e)) {
      entries.remove(name);
      dirty = true; // the next token leaves it out
      owner.dropped(name, e);
    }
    return e.value;
  }

  /**
   * Reads the stored value of {@code e} from the token; {@code false} (and {@code e} stays
   * unloaded) if it no longer reads back as its recorded type: a type this filter does not
   * allow (renamed, no longer registered, never allowed) or JSON that no longer fits the class.
   */
  boolean read(String name, Entry e) {
    Class<?> type = codec.resolve(e.typeName);
    if (type == null) {
      return false;
    }
    Object value;
    try {
      value = token.get(name, type).orElse(null);
    } catch (RuntimeException ex) {
      // Never keep or log the message: it may quote the stored value.
      e.failure = ex.getClass().getSimpleName();
      return false;
    }
    e.value = value;
    e.loaded = true;
    if (value != null && AttributeCodec.isMutable(type)) {
      e.baseline = codec.json(value);
    }
    return true;
  }

  @Override
  public Enumeration<String> getAttributeNames() {
    synchronized (owner) {
      checkValid("getAttributeNames");
      // Only names whose values still read back: a dropped attribute is never listed.
      for (Map.Entry<String, Entry> e : new ArrayList<>(entries.entrySet())) {
        load(e.getKey(), e.getValue());
      }
      return Collections.enumeration(new ArrayList<>(entries.keySet()));
    }
  }

  @Override
  public void setAttribute(String name, Object value) {
    synchronized (owner) {
      checkValid("setAttribute");
      if (name == null) {
        throw new IllegalArgumentException("attribute name must not be null");
      }
      if (value == null) {
        removeAttribute(name);
        return;
      }
      if (name.isEmpty() || name.length() > 256 || name.equals(RequestSession.META)) {
        throw new IllegalArgumentException("session attribute name '" + name
            + "' is not allowed: 1 to 256 characters, and not " + RequestSession.META);
      }
      String typeName = codec.typeName(name, value);
      byte[] json = codec.checkedJson(name, value, typeName);
      Entry e = new Entry(typeName);
      e.value = value;
      e.loaded = true;
      e.baseline = AttributeCodec.isMutable(codec.resolve(typeName)) ? json : null;
      Entry previous = entries.get(name);
      boolean same = previous != null && previous.loaded && previous.value == value;
      if (!same && value instanceof HttpSessionBindingListener) {
        ((HttpSessionBindingListener) value).valueBound(new HttpSessionBindingEvent(this, name, value));
      }
      Entry old = entries.put(name, e);
      dirty = true;
      unbound(name, old, value);
    }
  }

  private void unbound(String name, Entry old, Object replacement) {
    if (old == null) {
      return;
    }
    Class<?> type = codec.resolve(old.typeName);
    if (type != null && HttpSessionBindingListener.class.isAssignableFrom(type)) {
      Object v = old.loaded || read(name, old) ? old.value : null;
      if (v != null && v != replacement) {
        ((HttpSessionBindingListener) v).valueUnbound(new HttpSessionBindingEvent(this, name, v));
      }
    }
  }

  @Override
  public void removeAttribute(String name) {
    synchronized (owner) {
      checkValid("removeAttribute");
      Entry old = entries.remove(name);
      if (old != null) {
        dirty = true;
        unbound(name, old, null);
      }
    }
  }

  @Override
  public void invalidate() {
    synchronized (owner) {
      checkValid("invalidate");
      List<String> names = new ArrayList<>(entries.keySet());
      valid = false;
      for (String n : names) {
        unbound(n, entries.get(n), null);
      }
      entries.clear();
      owner.invalidated(this);
    }
  }

  @Override
  public boolean isNew() {
    synchronized (owner) {
      checkValid("isNew");
      return isNew;
    }
  }

  /** Whether a value read or set earlier now writes different JSON (changed in place). */
  boolean mutatedInPlace() {
    for (Entry e : entries.values()) {
      if (e.loaded && e.baseline != null && !Arrays.equals(e.baseline, codec.json(e.value))) {
        return true;
      }
    }
    return false;
  }

  /** After a write: what was written is the new baseline. */
  void written() {
    dirty = false;
    for (Entry e : entries.values()) {
      if (e.loaded && e.baseline != null) {
        e.baseline = codec.json(e.value);
      }
    }
  }
}
