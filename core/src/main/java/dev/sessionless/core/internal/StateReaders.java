package dev.sessionless.core.internal;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.deser.DefaultDeserializationContext;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How one codec reads state values: its {@code ObjectMapper}, an {@code ObjectReader} per type
 * (made once, not per read; at most {@link #MAX_READERS} kept), and which scalar types may skip
 * Jackson.
 *
 * <p>A scalar type may skip Jackson only when the mapper would read it with Jackson's own
 * standard deserializer (the very instance a plain mapper uses: no module replaced it, no
 * default typing wraps it), reads JSON, and does not unwrap root values; and then only for the
 * exact JSON shape that deserializer turns into a value without any option being consulted (a
 * JSON string for {@code String}, {@code true}/{@code false} for {@code Boolean}, an integer in
 * range for {@code Integer}/{@code Long}) and within the mapper's read limits. Everything else
 * goes to Jackson, so the value is always the one Jackson would read.
 */
public final class StateReaders {
  /** The most {@code ObjectReader}s one codec keeps; readers for further types are made per read. */
  static final int MAX_READERS = 256;

  /** Final JDK value types: a value read once can be handed out again. */
  private static final Set<Class<?>> IMMUTABLE = Set.of(String.class, Boolean.class, Integer.class,
      Long.class, Short.class, Byte.class, Double.class, Float.class, Character.class,
      BigInteger.class, BigDecimal.class);

  /** The deserializers a plain mapper uses for {@link #IMMUTABLE}, made lazily. */
  private static volatile Map<Class<?>, JsonDeserializer<Object>> standard;

  private final ObjectMapper mapper;
  private final ConcurrentHashMap<Type, ObjectReader> readers = new ConcurrentHashMap<>();
  /** The types of {@link #IMMUTABLE} this mapper reads with the standard deserializer; lazy. */
  private volatile Set<Class<?>> plain;
  private final int maxReaders;
  private final long maxStringLength;
  private final long maxNumberLength;
  private final long maxDocumentLength;

  /** @param mapper the codec's mapper */
  public StateReaders(ObjectMapper mapper) {
    this(mapper, MAX_READERS);
  }

  StateReaders(ObjectMapper mapper, int maxReaders) {
    this.mapper = mapper;
    this.maxReaders = maxReaders;
    StreamReadConstraints c = mapper.getFactory().streamReadConstraints();
    this.maxStringLength = c.getMaxStringLength();
    this.maxNumberLength = c.getMaxNumberLength();
    long doc = c.getMaxDocumentLength();
    this.maxDocumentLength = doc <= 0 ? Long.MAX_VALUE : doc;
  }

  /** The codec's mapper. */
  public ObjectMapper mapper() {
    return mapper;
  }

  /** A reader for {@code type}, kept for the next read while fewer than the bound are. */
  public ObjectReader readerFor(Type type) {
    ObjectReader r = readers.get(type);
    if (r == null) {
      r = mapper.readerFor(mapper.getTypeFactory().constructType(type));
      if (readers.size() < maxReaders) {
        ObjectReader raced = readers.putIfAbsent(type, r);
        if (raced != null) {
          r = raced;
        }
      }
    }
    return r;
  }

  /** How many readers are kept (for tests). */
  int readerCount() {
    return readers.size();
  }

  /**
   * Whether a value of {@code type} read by this mapper is an immutable JDK value read by
   * Jackson's standard deserializer, so it may be read without Jackson (for the shapes {@link
   * StateValues} reads) and handed out again instead of read again.
   */
  public boolean isPlainValue(Class<?> type) {
    if (!IMMUTABLE.contains(type)) {
      return false;
    }
    Set<Class<?>> p = plain;
    if (p == null) {
      try {
        p = findPlain();
      } catch (RuntimeException e) {
        p = Set.of(); // a mapper we cannot inspect: Jackson reads everything, as it always did
      }
      plain = p;
    }
    return p.contains(type);
  }

  /**
   * The value of {@code type} in {@code b[start, end)} read without Jackson, or {@link
   * StateValues#UNREAD} when Jackson must read it. Call only for a {@link #isPlainValue} type.
   */
  public Object readPlain(Class<?> type, byte[] b, int start, int end) {
    if (end - start > maxDocumentLength) {
      return StateValues.UNREAD;
    }
    return StateValues.read(type, b, start, end, maxStringLength, maxNumberLength);
  }

  private Set<Class<?>> findPlain() {
    if (!"JSON".equals(mapper.getFactory().getFormatName())
        || mapper.getDeserializationConfig().useRootWrapping()) {
      return Set.of();
    }
    Map<Class<?>, JsonDeserializer<Object>> reference = standard;
    if (reference == null) {
      reference = rootDeserializers(new ObjectMapper());
      standard = reference;
    }
    Map<Class<?>, JsonDeserializer<Object>> own = rootDeserializers(mapper);
    Set<Class<?>> same = new java.util.HashSet<>();
    for (Class<?> c : IMMUTABLE) {
      JsonDeserializer<Object> d = own.get(c);
      if (d != null && d == reference.get(c)) {
        same.add(c);
      }
    }
    return Set.copyOf(same);
  }

  /** The root deserializer {@code m} reads each {@link #IMMUTABLE} type with (missing: unknown). */
  private static Map<Class<?>, JsonDeserializer<Object>> rootDeserializers(ObjectMapper m) {
    Map<Class<?>, JsonDeserializer<Object>> found = new java.util.HashMap<>();
    DeserializationConfig config = m.getDeserializationConfig();
    if (!(m.getDeserializationContext() instanceof DefaultDeserializationContext)) {
      return found;
    }
    DefaultDeserializationContext ctxt =
        ((DefaultDeserializationContext) m.getDeserializationContext()).createDummyInstance(config);
    for (Class<?> c : IMMUTABLE) {
      try {
        found.put(c, ctxt.findRootValueDeserializer(config.constructType(c)));
      } catch (JsonMappingException | RuntimeException e) {
        // not known: this type is read by Jackson every time
      }
    }
    return found;
  }
}
