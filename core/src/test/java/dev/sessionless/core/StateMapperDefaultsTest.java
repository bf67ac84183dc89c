package dev.sessionless.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Type;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.core.StreamReadConstraints;

/**
 * The {@link StateMapper} SPI's default methods are the safe ones: a mapper that says nothing
 * about class-name typing is refused where attribute types are checked, and one that says
 * nothing about its read limits gets Jackson's, not none.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class StateMapperDefaultsTest {
  /** A mapper that overrides only what it must. */
  static final class Minimal implements StateMapper {
    @Override
    public byte[] write(Object value) {
      return StateMapper.defaults().write(value);
    }

    @Override
    public Object read(byte[] json, int off, int len, Type type) {
      return StateMapper.defaults().read(json, off, len, type);
    }
  }

  @Test
  void mapperThatDoesNotOverrideCheckTypesRefusesEverySetupNamingItself() {
    Minimal m = new Minimal();
    IllegalArgumentException none = assertThrows(IllegalArgumentException.class, () -> m.checkTypes(Set.of()));
    assertTrue(none.getMessage().contains(Minimal.class.getName()), none.getMessage());
    assertTrue(none.getMessage().contains("checkTypes"), none.getMessage());
    assertThrows(IllegalArgumentException.class, () -> m.checkTypes(Set.of(Map.class)));
  }

  /** A plain record, as an application registers. */
  record Line(String sku, int quantity) {}

  @Test
  void theJacksonMappersStillAcceptPlainTypes() {
    StateMapper.defaults().checkTypes(Set.of());
    StateMapper.defaults().checkTypes(Set.of(Line.class));
  }

  @Test
  void mapperThatDoesNotOverrideReadLimitsGetsJacksonsDefaultLimitsNotNone() {
    StateMapper.ReadLimits limits = new Minimal().readLimits();
    StreamReadConstraints jackson = StreamReadConstraints.defaults();
    assertEquals(jackson.getMaxStringLength(), limits.maxStringLength());
    assertEquals(jackson.getMaxNumberLength(), limits.maxNumberLength());
    assertEquals(StateMapper.ReadLimits.DEFAULTS, limits);
  }
}
