package dev.sessionless.webflux.internal;

import dev.sessionless.session.internal.TokenSession;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code WebSession.getAttributes()}: a live map over the engine's session, so every rule is the
 * engine's (types, round trip, budget, lazy reading, in-place tracking). WebFlux's sessions
 * answer an invalidated session's map as empty: reads answer nothing and a remove does nothing
 * (Spring Security's logout removes its attributes after or before invalidating), while a put
 * throws, as it would on an invalidated {@code HttpSession}.
 */
final class AttributeMap extends AbstractMap<String, Object> {
  private final TokenWebSession owner;

  AttributeMap(TokenWebSession owner) {
    this.owner = owner;
  }

  private TokenSession live() {
    TokenSession s = owner.engineSession();
    return s != null && s.valid() ? s : null;
  }

  @Override
  public Object get(Object key) {
    TokenSession s = live();
    return s == null || !(key instanceof String) ? null : s.attribute((String) key);
  }

  @Override
  public boolean containsKey(Object key) {
    return get(key) != null;
  }

  @Override
  public Object put(String name, Object value) {
    TokenSession s = owner.engineSession();
    if (s == null || !s.valid()) {
      throw new IllegalStateException("the session has been invalidated: its attributes cannot change");
    }
    Object old = s.attribute(name);
    s.setAttribute(name, value);
    owner.started();
    return old;
  }

  @Override
  public Object remove(Object key) {
    TokenSession s = live();
    if (s == null || !(key instanceof String)) {
      return null;
    }
    Object old = s.attribute((String) key);
    s.removeAttribute((String) key);
    return old;
  }

  @Override
  public int size() {
    TokenSession s = live();
    return s == null ? 0 : s.attributeNames().size();
  }

  @Override
  public Set<Map.Entry<String, Object>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public Iterator<Map.Entry<String, Object>> iterator() {
        TokenSession s = live();
        Iterator<String> names = (s == null ? List.<String>of() : s.attributeNames()).iterator();
        return new Iterator<>() {
          private String current;

          @Override
          public boolean hasNext() {
            return names.hasNext();
          }

          @Override
          public Map.Entry<String, Object> next() {
            String name = names.next();
            current = name;
            return new SimpleEntry<>(name, AttributeMap.this.get(name)) {
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
            AttributeMap.this.remove(current);
          }
        };
      }

      @Override
      public int size() {
        return AttributeMap.this.size();
      }
    };
  }
}
