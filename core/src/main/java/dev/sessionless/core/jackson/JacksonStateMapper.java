package dev.sessionless.core.jackson;

import dev.sessionless.core.StateMapper;
import dev.sessionless.core.internal.JacksonAdapters;
import dev.sessionless.core.internal.Json;
import java.lang.reflect.Type;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.databind.DeserializationConfig;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Jackson 3 {@link StateMapper}: {@link #defaults()} (what every builder uses unless given
 * another), or {@link #of} an application's own {@code JsonMapper}, so its modules, naming
 * strategy and date handling reach the state values.
 *
 * <p>An application's mapper is used as it is, except that it is rebuilt to refuse trailing data
 * after a value and to call multi-argument constructors (records) through a handle adapted once
 * per type rather than on every read (the same constructor and arguments, see {@code
 * SpreadCreators}); one with default typing activated is refused (it would let JSON read from a
 * token choose the class to instantiate), and {@link #checkTypes} refuses attribute types
 * annotated for class-name typing.
 *
 * <p>Rules and caches shared with the Jackson 2 adapter are in {@code internal.JacksonAdapters};
 * the calls left here differ from {@code Jackson2StateMapper}'s because Jackson 3's classes are
 * not Jackson 2's.
 */
public final class JacksonStateMapper implements StateMapper {
  /** The most {@code ObjectReader}s one mapper keeps; readers for further types are made per read. */
  static final int MAX_READERS = JacksonAdapters.MAX_READERS;

  private static final JacksonStateMapper DEFAULTS = new JacksonStateMapper(
      // Jackson 2's defaults: the state JSON stays what earlier versions wrote and read (no
      // alphabetical sorting, no failing on null for primitives). The shared recycler pool keeps
      // nothing per thread (see Json.plainFactory).
      JsonMapper.builder(Json.plainFactory())
          .configureForJackson2()
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .addModule(SpreadCreators.module())
          .build());

  /** The deserializers a plain mapper uses for {@code JacksonAdapters.IMMUTABLE}, made lazily. */
  private static volatile Map<Class<?>, ValueDeserializer<Object>> standard;

  private final JsonMapper mapper;
  private final ConcurrentHashMap<Type, ObjectReader> readers = new ConcurrentHashMap<>();
  private final int maxReaders;
  private final ReadLimits limits;
  private final JacksonAdapters.PlainTypes plain = new JacksonAdapters.PlainTypes(this::findPlain);
  private final Function<Type, ObjectReader> newReader;

  private JacksonStateMapper(JsonMapper mapper) {
    this(mapper, MAX_READERS);
  }

  JacksonStateMapper(JsonMapper mapper, int maxReaders) {
    this.mapper = mapper;
    this.maxReaders = maxReaders;
    this.newReader = t -> mapper.readerFor(mapper.constructType(t));
    StreamReadConstraints c = mapper.tokenStreamFactory().streamReadConstraints();
    this.limits = JacksonAdapters.limits(c.getMaxStringLength(), c.getMaxNumberLength(), c.getMaxDocumentLength());
  }

  /** The default mapper: Jackson 3 with Jackson 2's defaults, refusing trailing data, no polymorphic typing. */
  public static JacksonStateMapper defaults() {
    return DEFAULTS;
  }

  /**
   * A state mapper using the application's own Jackson 3 mapper (e.g. Spring Boot's), rebuilt to
   * refuse trailing data after a value.
   *
   * @throws IllegalArgumentException if the mapper has default typing activated
   */
  public static JacksonStateMapper of(JsonMapper mapper) {
    Objects.requireNonNull(mapper, "mapper");
    JacksonTypeSafety.refuseDefaultTyping(mapper);
    return new JacksonStateMapper(mapper.rebuild().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .addModule(SpreadCreators.module()).build());
  }

  @Override
  public byte[] write(Object value) {
    return mapper.writeValueAsBytes(value);
  }

  @Override
  public void writeTo(Object value, java.io.OutputStream out) {
    mapper.writeValue(out, value);
  }

  @Override
  public Object read(byte[] json, int off, int len, Type type) {
    return readerFor(type).readValue(json, off, len);
  }

  @Override
  public void checkTypes(Set<Class<?>> types) {
    JacksonTypeSafety.check(mapper, types);
  }

  @Override
  public ReadLimits readLimits() {
    return limits;
  }

  /**
   * True only when this mapper reads {@code type} with Jackson's own standard deserializer (the
   * very instance a plain mapper uses: no module replaced it, no default typing wraps it), reads
   * JSON and does not unwrap root values.
   */
  @Override
  public boolean readsPlainly(Class<?> type) {
    return plain.contains(type);
  }

  /** A reader for {@code type}, kept for the next read while fewer than the bound are. */
  ObjectReader readerFor(Type type) {
    return JacksonAdapters.reader(readers, maxReaders, type, newReader);
  }

  /** How many readers are kept (for tests). */
  int readerCount() {
    return readers.size();
  }

  private Set<Class<?>> findPlain() {
    if (!"JSON".equals(mapper.tokenStreamFactory().getFormatName())
        || mapper.deserializationConfig().useRootWrapping()) {
      return Set.of();
    }
    Map<Class<?>, ValueDeserializer<Object>> reference = standard;
    if (reference == null) {
      reference = rootDeserializers(JsonMapper.builder().build());
      standard = reference;
    }
    return JacksonAdapters.sameDeserializers(rootDeserializers(mapper), reference);
  }

  /** The root deserializer {@code m} reads each {@code JacksonAdapters.IMMUTABLE} type with (missing: unknown). */
  private static Map<Class<?>, ValueDeserializer<Object>> rootDeserializers(JsonMapper m) {
    Map<Class<?>, ValueDeserializer<Object>> found = new HashMap<>();
    DeserializationConfig config = m.deserializationConfig();
    DeserializationContext ctxt = m._deserializationContext();
    for (Class<?> c : JacksonAdapters.IMMUTABLE) {
      try {
        JavaType t = config.constructType(c);
        found.put(c, ctxt.findRootValueDeserializer(t));
      } catch (RuntimeException e) {
        // not known: this type is read by Jackson every time
      }
    }
    return found;
  }

  @Override
  public String toString() {
    return "JacksonStateMapper[" + mapper.getClass().getName() + "]";
  }
}
