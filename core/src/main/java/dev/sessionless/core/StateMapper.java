package dev.sessionless.core;

import dev.sessionless.core.internal.DefaultStateMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.Type;
import java.util.Set;

/**
 * Turns state values (and the servlet filter's session attributes) into JSON and back. The codec
 * keeps everything else about a token to itself; only application values pass through here, so
 * an application can bring the JSON configuration it already has.
 *
 * <p>The default, {@link #defaults()}, is Jackson 3 ({@code tools.jackson.databind}). {@code
 * dev.sessionless.core.jackson.JacksonStateMapper.of} wraps an application's own Jackson 3 {@code
 * JsonMapper} (e.g. Spring Boot 4's), and {@code dev.sessionless.core.jackson2.Jackson2StateMapper}
 * an application's Jackson 2 {@code ObjectMapper}; Jackson 2 is an optional dependency, needed
 * only for that adapter.
 *
 * <p>Implementations are immutable and safe for concurrent use. They must never let JSON read
 * from a token choose a class to instantiate: {@link #checkTypes} is where an implementation
 * refuses a setup that would.
 */
public interface StateMapper {
  /**
   * The JSON text of {@code value}, as UTF-8 bytes: exactly one complete JSON value.
   *
   * @throws RuntimeException if the value cannot be written (the codec reports it as {@code
   *     STATE_MAPPING}, naming the value)
   */
  byte[] write(Object value);

  /**
   * Writes to {@code out} the bytes {@link #write(Object)} returns for {@code value}. The default
   * copies them; the Jackson adapters stream, so the codec's encode writes each state value
   * straight into the token's payload, and a caller that only compares the JSON with bytes it
   * already has (the servlet filter's checks) builds no array. An implementation must write
   * exactly one complete JSON value; whatever it wrote before throwing is discarded with the token.
   *
   * @throws IOException if {@code out} fails
   * @throws RuntimeException if the value cannot be written, as {@link #write(Object)}
   */
  default void writeTo(Object value, OutputStream out) throws IOException {
    out.write(write(value));
  }

  /**
   * Reads the one JSON value in {@code json[off, off + len)} as {@code type} (a {@code Class} or
   * a generic type such as a {@code ParameterizedType}); {@code null} for JSON {@code null}.
   * Nothing may follow the value.
   *
   * @throws RuntimeException if the JSON does not read as {@code type}
   */
  Object read(byte[] json, int off, int len, Type type);

  /**
   * Whether this mapper reads {@code type} (one of {@code String}, {@code Boolean}, {@code
   * Integer}, {@code Long} and the other final JDK value types) exactly as plain JSON: a JSON
   * string as that {@code String}, {@code true}/{@code false} as that {@code Boolean}, an
   * integer in range as that number, within {@link #readLimits()}. When it does, the codec reads
   * such values itself, without calling {@link #read}, and hands the same immutable value out
   * again. The default is {@code false}: every value goes through {@link #read}.
   */
  default boolean readsPlainly(Class<?> type) {
    return false;
  }

  /**
   * The limits {@link #read} enforces, which the codec keeps to when it reads a value itself.
   * The default is {@link ReadLimits#DEFAULTS} (Jackson 3's own default limits), not {@link
   * ReadLimits#UNBOUNDED}: a mapper that reads plainly and says nothing of its limits does not
   * have the codec read a number of any length for it.
   */
  default ReadLimits readLimits() {
    return ReadLimits.DEFAULTS;
  }

  /**
   * Refuses a setup under which JSON read back as one of {@code types} (or as the plain {@code
   * Object}, {@code Map} and {@code List} every attribute may be) could name a class to
   * instantiate (polymorphic typing by class name): called once, when the servlet filter is
   * built, with the attribute types an application registers.
   *
   * <p>The default refuses every setup, naming the implementation: a mapper must say, by
   * overriding this, that it has checked. The Jackson adapters ({@link #defaults()}, {@code
   * JacksonStateMapper}, {@code Jackson2StateMapper}) do; a mapper that delegates to one of them
   * can delegate this too.
   *
   * @throws IllegalArgumentException naming the type, property or setting at fault
   */
  default void checkTypes(Set<Class<?>> types) {
    throw new IllegalArgumentException(getClass().getName() + " does not say whether JSON read through it can name"
        + " a class to instantiate: override StateMapper.checkTypes to refuse a setup that would (polymorphic"
        + " typing by class name) and accept the rest, or use StateMapper.defaults(), JacksonStateMapper or"
        + " Jackson2StateMapper, which check it");
  }

  /**
   * The default mapper: a plain Jackson 3 {@code JsonMapper} that refuses trailing data and
   * never uses polymorphic typing: the same instance as {@code JacksonStateMapper.defaults()}.
   */
  static StateMapper defaults() {
    return DefaultStateMapper.get();
  }

  /**
   * The read limits of a {@link StateMapper}.
   *
   * @param maxStringLength the longest string, in chars
   * @param maxNumberLength the longest number, in digits
   * @param maxDocumentLength the longest JSON text, in bytes
   */
  record ReadLimits(long maxStringLength, long maxNumberLength, long maxDocumentLength) {
    /** No limits: every value the codec reads itself is read whatever its length. */
    public static final ReadLimits UNBOUNDED = new ReadLimits(Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE);

    /**
     * Jackson 3's default limits ({@code StreamReadConstraints.defaults()}): strings up to
     * 100,000,000 chars, numbers up to 1,000 digits, documents of any length. What {@link
     * StateMapper#readLimits()} returns unless a mapper says otherwise.
     */
    public static final ReadLimits DEFAULTS = new ReadLimits(100_000_000, 1000, Long.MAX_VALUE);
  }
}
