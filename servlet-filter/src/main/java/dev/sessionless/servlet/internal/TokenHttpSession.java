package dev.sessionless.servlet.internal;

import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenException;
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
 * use and written back as JSON. Lives for one request (and its dispatches); not thread-safe
 * beyond what the Servlet spec asks of one request.
 */
final class TokenHttpSession implements HttpSession {
  /** One attribute: its recorded type, and its value once read or set. */
  static final class Entry {
    final String typeName;
    Object value;
    boolean loaded;
    /** JSON last written or read, for detecting in-place changes; {@code null} if immutable. */
    byte[] baseline;

    Entry(String typeName) {
      this.typeName = typeName;
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
    checkValid("getCreationTime");
    return created;
  }

  @Override
  public String getId() {
    return id;
  }

  @Override
  public long getLastAccessedTime() {
    checkValid("getLastAccessedTime");
    return lastAccessed;
  }

  @Override
  public ServletContext getServletContext() {
    return context;
  }

  @Override
  public void setMaxInactiveInterval(int interval) {
    if (interval != maxInactive) {
      maxInactive = interval;
      dirty = true;
    }
  }

  @Override
  public int getMaxInactiveInterval() {
    return maxInactive;
  }

  @Override
  public Object getAttribute(String name) {
    checkValid("getAttribute");
    Entry e = entries.get(name);
    if (e == null) {
      return null;
    }
    return load(name, e);
  }

  private Object load(String name, Entry e) {
    if (!e.loaded) {
      Class<?> type = codec.resolve(e.typeName);
      if (type == null) {
        throw new IllegalStateException("session attribute '" + name + "' has type " + e.typeName
            + ", which this filter does not allow: register it with attributeTypes(...)");
      }
      try {
        e.value = token.get(name, type).orElse(null);
      } catch (TokenException ex) {
        throw new IllegalStateException("session attribute '" + name + "' cannot be read as "
            + e.typeName + " (" + ex.reason() + "): was the class changed since it was stored?", ex);
      }
      e.loaded = true;
      if (e.value != null && AttributeCodec.isMutable(type)) {
        e.baseline = codec.json(e.value);
      }
    }
    return e.value;
  }

  @Override
  public Enumeration<String> getAttributeNames() {
    checkValid("getAttributeNames");
    return Collections.enumeration(new ArrayList<>(entries.keySet()));
  }

  @Override
  public void setAttribute(String name, Object value) {
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

  private void unbound(String name, Entry old, Object replacement) {
    if (old == null) {
      return;
    }
    Class<?> type = codec.resolve(old.typeName);
    if (type != null && HttpSessionBindingListener.class.isAssignableFrom(type)) {
      Object v = load(name, old);
      if (v != null && v != replacement) {
        ((HttpSessionBindingListener) v).valueUnbound(new HttpSessionBindingEvent(this, name, v));
      }
    }
  }

  @Override
  public void removeAttribute(String name) {
    checkValid("removeAttribute");
    Entry old = entries.remove(name);
    if (old != null) {
      dirty = true;
      unbound(name, old, null);
    }
  }

  @Override
  public void invalidate() {
    checkValid("invalidate");
    List<String> names = new ArrayList<>(entries.keySet());
    valid = false;
    for (String n : names) {
      unbound(n, entries.get(n), null);
    }
    entries.clear();
    owner.invalidated(this);
  }

  @Override
  public boolean isNew() {
    checkValid("isNew");
    return isNew;
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
