package dev.sessionless.session.internal;

import dev.sessionless.core.internal.RawJson;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The session a request works on, backed by a token: attribute values are read from the token
 * on first use and written back as JSON, through the application's {@code StateMapper} and
 * registered types ({@link AttributeCodec}); changes, also in place, are tracked so that the
 * token is written only when it must be. Lives for one request (and its dispatches); an adapter
 * shows it as its container's session type (the servlet filter's {@code HttpSession}, the WebFlux
 * adapter's {@code WebSession}).
 *
 * <p>Thread-safe: every method holds the lock of its {@link ExchangeSession} (the token is
 * written under it), the binding hooks are called holding it. No method blocks: {@link
 * #invalidate()} returns the revocation store's write for the caller to run.
 */
public final class TokenSession {
  private final ExchangeSession owner;
  private final AttributeCodec codec;
  private final ValueWalker walker;
  private final SessionHooks hooks;
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

  TokenSession(ExchangeSession owner, String id, long created, long lastAccessed, int maxInactive, boolean isNew) {
    this.owner = owner;
    this.codec = owner.settings().attributes;
    this.walker = owner.settings().walker;
    this.hooks = owner.hooks();
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

  // The plain accessors only take the lock. Messages name HttpSession's methods (servlet code's).

  /**
   * When the session was created, millis since the epoch.
   *
   * @throws IllegalStateException if it has been invalidated
   */
  public long creationTime() {
    synchronized (owner) {
      checkValid("getCreationTime");
      return created;
    }
  }

  /** The session's id: the token's {@code sid}, or a new random one (new session, changed id). */
  public String id() {
    synchronized (owner) {
      return id;
    }
  }

  /**
   * When the token the request came with was issued (the session's last access as the token
   * knows it), or the creation time of a new session; millis.
   *
   * @throws IllegalStateException if it has been invalidated
   */
  public long lastAccessedTime() {
    synchronized (owner) {
      checkValid("getLastAccessedTime");
      return lastAccessed;
    }
  }

  /** Sets the session's inactivity limit, in seconds (0 or less: only the absolute lifetime ends it). */
  public void maxInactiveInterval(int interval) {
    synchronized (owner) {
      if (interval != maxInactive) {
        maxInactive = interval;
        dirty = true;
      }
    }
  }

  /** The session's inactivity limit, in seconds. */
  public int maxInactiveInterval() {
    synchronized (owner) {
      return maxInactive;
    }
  }

  /** Whether the session is still valid (not invalidated, not past its absolute lifetime). */
  public boolean valid() {
    synchronized (owner) {
      return valid;
    }
  }

  /**
   * The value of attribute {@code name}, or {@code null}; a stored value that no longer reads
   * back is dropped from the session (and logged) and answers {@code null}.
   *
   * @throws IllegalStateException if the session has been invalidated
   */
  public Object attribute(String name) {
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

  /**
   * The names of the attributes whose values still read back (a dropped one is never listed), a
   * copy.
   *
   * @throws IllegalStateException if the session has been invalidated
   */
  public List<String> attributeNames() {
    synchronized (owner) {
      checkValid("getAttributeNames");
      for (Map.Entry<String, AttributeEntry> e : new ArrayList<>(entries.entrySet())) {
        load(e.getKey(), e.getValue());
      }
      return new ArrayList<>(entries.keySet());
    }
  }

  /**
   * Sets attribute {@code name} to {@code value} ({@code null} removes it). The value must be a
   * type the settings allow and survive its JSON round trip, and the state must stay within its
   * budget; otherwise nothing changes.
   *
   * @throws IllegalArgumentException if the name is not allowed, or the value's type is not
   * @throws IllegalStateException if the session has been invalidated; the adapter's too-large
   *     exception (a subclass) if the state would grow past its budget
   */
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
      if (name.isEmpty() || name.length() > 256 || name.equals(StoredState.META)) {
        throw new IllegalArgumentException("session attribute name '" + name
            + "' is not allowed: 1 to 256 characters, and not " + StoredState.META);
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
      if (!same && hooks.listens(value.getClass())) {
        hooks.bound(this, name, value);
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
    if (type != null && hooks.listens(type)) {
      Object v = old.loaded || read(name, old) ? old.value : null;
      if (v != null && v != replacement) {
        hooks.unbound(this, name, v);
      }
    }
  }

  /**
   * Removes attribute {@code name}, if there is one.
   *
   * @throws IllegalStateException if the session has been invalidated
   */
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
   * Ends the session: its attributes are unbound, and its cookie is cleared at the next
   * checkpoint. Does not block: with a revocation store, returns the write that makes the logout
   * hold on every node (a copy of the cookie stops working), for the caller to run once it holds
   * no lock and may block ({@link LogoutRevocation#write()}: the store may be across the
   * network); {@code null} if there is nothing to write.
   *
   * @throws IllegalStateException if the session has already been invalidated
   */
  public LogoutRevocation invalidate() {
    synchronized (owner) {
      checkValid("invalidate");
      List<String> names = new ArrayList<>(entries.keySet());
      valid = false;
      for (String n : names) {
        unbound(n, entries.get(n), null);
      }
      entries.clear();
      return owner.invalidated(this);
    }
  }

  /**
   * Whether the session was created in this request (the client has no token for it yet).
   *
   * @throws IllegalStateException if the session has been invalidated
   */
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

  /**
   * What changed since the last write, for the report of a change made after the response
   * committed: {@code attribute} (an attribute set or removed, the id or max-inactive interval
   * changed), {@code in-place} (a value the application held changed without a {@code
   * setAttribute}), or {@code null}.
   */
  String unwrittenChange() {
    if (dirty) {
      return "attribute";
    }
    try {
      return mutatedInPlace() ? "in-place" : null;
    } finally {
      forgetCurrent();
    }
  }
}
