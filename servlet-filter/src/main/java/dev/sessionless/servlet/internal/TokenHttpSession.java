package dev.sessionless.servlet.internal;

import dev.sessionless.core.SessionToken;
import dev.sessionless.core.internal.RawJson;
import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpSession;
import jakarta.servlet.http.HttpSessionBindingEvent;
import jakarta.servlet.http.HttpSessionBindingListener;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import dev.sessionless.session.internal.AttributeCodec;
import dev.sessionless.session.internal.Snapshot;
import dev.sessionless.session.internal.ValueWalker;
import dev.sessionless.session.internal.AttributeEntry;

/**
 * An {@link HttpSession} backed by a token: attribute values are read from the token on first
 * use and written back as JSON. Lives for one request (and its dispatches). Thread-safe (Servlet
 * 6.0, 7.7.1): every method holds the lock of its {@link RequestSession}, the same lock the
 * token is written under, so an async application may use it from several threads; binding
 * listeners are called holding it. No store is called holding it ({@link #invalidate()}).
 */
final class TokenHttpSession implements HttpSession {
  private final RequestSession owner;
  private final AttributeCodec codec;
  private final ValueWalker walker;
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
  /** Sized for a few attributes (a table of 4, not 16: most sessions hold a handful); grows as needed. */
  final Map<String, AttributeEntry> entries = new LinkedHashMap<>(4);

  TokenHttpSession(RequestSession owner, AttributeCodec codec, ServletContext context,
      SessionToken token, String id, long created, long lastAccessed, int maxInactive, boolean isNew) {
    this.owner = owner;
    this.codec = codec;
    this.walker = owner.settings().walker;
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

  // The plain HttpSession accessors: each only takes the session's lock; their shape is what
  // any getter has, with nothing to share with code elsewhere.
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
      AttributeEntry e = entries.get(name);
      if (e == null) {
        return null;
      }
      Object v = load(name, e);
      if (v != null && !e.handedOut && AttributeCodec.isMutable(e.type)) {
        // Read from its JSON just now and held by no one else yet: what it holds is the baseline
        // (not needed for a value compared with its JSON without the mapper, as cheaply).
        e.snapshot = codec.comparesWithoutMapper(v) ? null : Snapshot.of(v, walker);
        e.handedOut = true;
      }
      return v;
    }
  }

  private Object load(String name, AttributeEntry e) {
    if (!e.loaded && !read(name, e)) {
      entries.remove(name);
      dirty = true; // the next token leaves it out
      IncomingSession.dropped(owner.settings(), name, e);
    }
    return e.value;
  }

  /**
   * Reads the stored value of {@code e} from its JSON; {@code false} (and {@code e} stays
   * unloaded) if it no longer reads back as its recorded type: a type this filter does not
   * allow (renamed, no longer registered, never allowed) or JSON that no longer fits the class.
   */
  boolean read(String name, AttributeEntry e) {
    if (e.type == null) {
      return false;
    }
    Object value;
    try {
      value = codec.read(e.type, e.json, e.off, e.len);
    } catch (RuntimeException ex) {
      // Never keep or log the message: it may quote the stored value.
      e.failure = ex.getClass().getSimpleName();
      return false;
    }
    e.value = value;
    e.loaded = true;
    return true;
  }

  @Override
  public Enumeration<String> getAttributeNames() {
    synchronized (owner) {
      checkValid("getAttributeNames");
      // Only names whose values still read back: a dropped attribute is never listed.
      for (Map.Entry<String, AttributeEntry> e : new ArrayList<>(entries.entrySet())) {
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
      AttributeEntry e = new AttributeEntry(typeName, codec.resolve(typeName));
      // The caller keeps its reference: a mutable value may still change in place.
      e.handedOut = AttributeCodec.isMutable(e.type);
      // Taken before the JSON is written: should the value change meanwhile, the snapshot is the
      // older state and the save-time check sees the change. Unchanged at the save, the value
      // still writes this JSON, and is not serialised again to tell.
      e.snapshot = e.handedOut && !codec.comparesWithoutMapper(value) ? Snapshot.of(value, walker) : null;
      byte[] json = codec.checkedJson(name, value, typeName);
      owner.settings().budget.check(name, json, typeName, entries);
      e.value = value;
      e.loaded = true;
      e.json(json, 0, json.length);
      AttributeEntry previous = entries.get(name);
      boolean same = previous != null && previous.loaded && previous.value == value;
      if (!same && value instanceof HttpSessionBindingListener) {
        ((HttpSessionBindingListener) value).valueBound(new HttpSessionBindingEvent(this, name, value));
      }
      AttributeEntry old = entries.put(name, e);
      dirty = true;
      unbound(name, old, value);
    }
  }

  private void unbound(String name, AttributeEntry old, Object replacement) {
    if (old == null) {
      return;
    }
    Class<?> type = old.type;
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
      AttributeEntry old = entries.remove(name);
      if (old != null) {
        dirty = true;
        unbound(name, old, null);
      }
    }
  }

  /**
   * Ends the session. A revocation store is written after the lock is released: it may be
   * across the network, and another thread of the request must not wait behind it.
   */
  @Override
  public void invalidate() {
    LogoutRevocation revocation;
    synchronized (owner) {
      checkValid("invalidate");
      List<String> names = new ArrayList<>(entries.keySet());
      valid = false;
      for (String n : names) {
        unbound(n, entries.get(n), null);
      }
      entries.clear();
      revocation = owner.invalidated(this);
    }
    if (revocation != null) {
      revocation.write();
    }
  }

  @Override
  public boolean isNew() {
    synchronized (owner) {
      checkValid("isNew");
      return isNew;
    }
  }

  /**
   * Whether a value the application held now writes different JSON than it was read or last
   * written as (changed in place). Only values handed out are serialised; the JSON found is
   * kept for the write that follows.
   */
  boolean mutatedInPlace() {
    boolean changed = false;
    for (AttributeEntry e : entries.values()) {
      if (e.loaded && e.handedOut && e.value != null) {
        if (e.snapshot != null && e.snapshot.unchanged(e.value, walker)) {
          e.checkedSame = true; // the same objects as when it matched its JSON: the same JSON
          continue;
        }
        if (e.snapshot == null) {
          // A plain list, map or record: compared with its JSON as it is written, allocating
          // nothing, at every check (no snapshot to keep).
          Boolean same = codec.sameWithoutMapper(e.value, e.json, e.off, e.len);
          if (same != null) {
            if (same) {
              e.checkedSame = true;
            } else {
              e.current = codec.json(e.value);
              changed = true;
            }
            continue;
          }
        }
        // Taken before the comparison: should the application change the value meanwhile, the
        // snapshot is the older state, so the next check sees the change.
        Snapshot now = Snapshot.of(e.value, walker);
        // Compared as it is written; the bytes are only built when they differ (to be written).
        if (codec.writesSame(e.value, e.json, e.off, e.len)) {
          e.checkedSame = true;
          e.snapshot = now;
        } else {
          e.current = codec.json(e.value);
          e.snapshot = null; // the baseline moves only once the new JSON is written
          changed = true;
        }
      }
    }
    return changed;
  }

  /**
   * The JSON to write for an entry, as a byte range handed to the token writer without a copy:
   * what the last in-place check found, else a fresh serialisation if the application held the
   * value, else the JSON it was read, set or carried from (for a value never read, the incoming
   * token's own bytes).
   */
  RawJson jsonToWrite(AttributeEntry e) {
    if (e.loaded && e.handedOut && e.value != null && !e.checkedSame) {
      byte[] now = e.current != null ? e.current : codec.json(e.value);
      e.current = now;
      return new RawJson(now, 0, now.length);
    }
    return new RawJson(e.json, e.off, e.len);
  }

  /** Drops the JSON the last in-place check found: it is only good until the application runs again. */
  void forgetCurrent() {
    for (AttributeEntry e : entries.values()) {
      e.current = null;
      e.checkedSame = false;
    }
  }

  /** After a write: what was written is the new baseline. */
  void written() {
    dirty = false;
    for (AttributeEntry e : entries.values()) {
      if (e.current != null) {
        e.json(e.current, 0, e.current.length);
        e.current = null;
        e.snapshot = null; // taken against the old JSON: the next check compares JSON again
      }
    }
  }
}
