package dev.sessionless.core.internal;

import dev.sessionless.core.StateMapper;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Set;

/**
 * How one codec reads state values: through its {@link StateMapper}, except the scalar types the
 * mapper says it reads plainly ({@link StateMapper#readsPlainly}).
 *
 * <p>Such a value is read here only for the exact JSON shape the mapper's own reading turns into
 * a value without any option being consulted (a JSON string for {@code String}, {@code
 * true}/{@code false} for {@code Boolean}, an integer in range for {@code Integer}/{@code Long})
 * and within the mapper's read limits. Everything else goes to the mapper, so the value is always
 * the one the mapper would read.
 */
public final class StateReaders {
  /** Final JDK value types: a value read once can be handed out again. */
  private static final Set<Class<?>> IMMUTABLE = Set.of(String.class, Boolean.class, Integer.class,
      Long.class, Short.class, Byte.class, Double.class, Float.class, Character.class,
      BigInteger.class, BigDecimal.class);

  private final StateMapper mapper;
  private final long maxStringLength;
  private final long maxNumberLength;
  private final long maxDocumentLength;
  /** {@link #isPlainValue} for {@code String}, the common case, asked once rather than per read. */
  private final boolean stringIsPlain;

  /** @param mapper the codec's mapper */
  public StateReaders(StateMapper mapper) {
    this.mapper = mapper;
    this.stringIsPlain = asks(mapper, String.class);
    StateMapper.ReadLimits c = mapper.readLimits();
    this.maxStringLength = c.maxStringLength();
    this.maxNumberLength = c.maxNumberLength();
    this.maxDocumentLength = c.maxDocumentLength() <= 0 ? Long.MAX_VALUE : c.maxDocumentLength();
  }

  /** The codec's mapper. */
  public StateMapper mapper() {
    return mapper;
  }

  /** Reads {@code b[start, end)} as {@code type} through the mapper. */
  public Object read(Type type, byte[] b, int start, int end) {
    return mapper.read(b, start, end - start, type);
  }

  /**
   * Whether a value of {@code type} is an immutable JDK value the mapper reads plainly, so it may
   * be read without the mapper (for the shapes {@link StateValues} reads) and handed out again
   * instead of read again.
   */
  public boolean isPlainValue(Class<?> type) {
    if (type == String.class) {
      return stringIsPlain;
    }
    return IMMUTABLE.contains(type) && asks(mapper, type); // else only immutable values are handed out again
  }

  private static boolean asks(StateMapper mapper, Class<?> type) {
    try {
      return mapper.readsPlainly(type);
    } catch (RuntimeException e) {
      return false; // a mapper that cannot say: it reads everything, as it always did
    }
  }

  /**
   * The value of {@code type} in {@code b[start, end)} read without the mapper, or {@link
   * StateValues#UNREAD} when the mapper must read it. Call only for a {@link #isPlainValue} type.
   */
  public Object readPlain(Class<?> type, byte[] b, int start, int end) {
    if (end - start > maxDocumentLength) {
      return StateValues.UNREAD;
    }
    return StateValues.read(type, b, start, end, maxStringLength, maxNumberLength);
  }
}
