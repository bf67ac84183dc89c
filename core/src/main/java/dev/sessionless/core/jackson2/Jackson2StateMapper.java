package dev.sessionless.core.jackson2;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.deser.DefaultDeserializationContext;
import dev.sessionless.core.StateMapper;
import dev.sessionless.core.internal.JacksonAdapters;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Type;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * A {@link StateMapper} for applications still on Jackson 2: wraps their {@code ObjectMapper}
 * (a copy of it, set to refuse trailing data after a value). Jackson 2 databind is an optional
 * dependency of sessionless-core; an application using this class has it already.
 *
 * <p>A mapper with default typing enabled is refused (it would let JSON read from a token choose
 * the class to instantiate), and {@link #checkTypes} refuses attribute types annotated for
 * class-name typing.
 *
 * <p>It shares its rules and caches with the Jackson 3 adapter ({@code JacksonStateMapper}) through
 * {@code internal.JacksonAdapters}; the calls left here differ because Jackson 2's classes and
 * checked exceptions are not Jackson 3's.
 */
public final class Jackson2StateMapper implements StateMapper {
  /** The deserializers a plain mapper uses for {@code JacksonAdapters.IMMUTABLE}, made lazily. */
  private static volatile Map<Class<?>, JsonDeserializer<Object>> standard;

  private final ObjectMapper mapper;
  private final ConcurrentHashMap<Type, ObjectReader> readers = new ConcurrentHashMap<>();
  private final ReadLimits limits;
  private final JacksonAdapters.PlainTypes plain = new JacksonAdapters.PlainTypes(this::findPlain);
  private final Function<Type, ObjectReader> newReader;

  private Jackson2StateMapper(ObjectMapper mapper) {
    this.mapper = mapper;
    this.newReader = t -> mapper.readerFor(mapper.getTypeFactory().constructType(t));
    StreamReadConstraints c = mapper.getFactory().streamReadConstraints();
    this.limits = JacksonAdapters.limits(c.getMaxStringLength(), c.getMaxNumberLength(), c.getMaxDocumentLength());
  }

  /**
   * A state mapper using a copy of the application's Jackson 2 mapper that refuses trailing data.
   *
   * @throws IllegalArgumentException if the mapper has default typing enabled
   */
  public static Jackson2StateMapper of(ObjectMapper mapper) {
    Objects.requireNonNull(mapper, "mapper");
    Jackson2TypeSafety.refuseDefaultTyping(mapper);
    return new Jackson2StateMapper(mapper.copy().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS));
  }

  @Override
  public byte[] write(Object value) {
    try {
      return mapper.writeValueAsBytes(value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void writeTo(Object value, java.io.OutputStream out) throws IOException {
    mapper.writeValue(out, value);
  }

  @Override
  public Object read(byte[] json, int off, int len, Type type) {
    try {
      return readerFor(type).readValue(json, off, len);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void checkTypes(Set<Class<?>> types) {
    Jackson2TypeSafety.check(mapper, types);
  }

  @Override
  public ReadLimits readLimits() {
    return limits;
  }

  /**
   * True only when this mapper reads {@code type} with Jackson's own standard deserializer (the
   * very instance a plain mapper uses), reads JSON and does not unwrap root values.
   */
  @Override
  public boolean readsPlainly(Class<?> type) {
    return plain.contains(type);
  }

  private ObjectReader readerFor(Type type) {
    return JacksonAdapters.reader(readers, JacksonAdapters.MAX_READERS, type, newReader);
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
    return JacksonAdapters.sameDeserializers(rootDeserializers(mapper), reference);
  }

  private static Map<Class<?>, JsonDeserializer<Object>> rootDeserializers(ObjectMapper m) {
    Map<Class<?>, JsonDeserializer<Object>> found = new HashMap<>();
    DeserializationConfig config = m.getDeserializationConfig();
    if (!(m.getDeserializationContext() instanceof DefaultDeserializationContext)) {
      return found;
    }
    DefaultDeserializationContext ctxt =
        ((DefaultDeserializationContext) m.getDeserializationContext()).createDummyInstance(config);
    for (Class<?> c : JacksonAdapters.IMMUTABLE) {
      try {
        found.put(c, ctxt.findRootValueDeserializer(config.constructType(c)));
      } catch (JsonMappingException | RuntimeException e) {
        // not known: this type is read by Jackson every time
      }
    }
    return found;
  }

  @Override
  public String toString() {
    return "Jackson2StateMapper[" + mapper.getClass().getName() + "]";
  }
}
