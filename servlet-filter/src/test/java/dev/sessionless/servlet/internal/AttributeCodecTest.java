package dev.sessionless.servlet.internal;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.StateMapper;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Attribute values the codec refuses with a clear error instead of failing deep inside. */
class AttributeCodecTest {
  private final AttributeCodec codec = new AttributeCodec(StateMapper.defaults(), Set.of());

  @Test
  void cyclicListIsAClearErrorNamingTheAttribute() {
    List<Object> loop = new ArrayList<>();
    loop.add("x");
    loop.add(loop);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> codec.typeName("loop", loop));
    assertTrue(e.getMessage().contains("'loop'") && e.getMessage().contains("cycle"), e.getMessage());
  }

  @Test
  void cyclicMapThroughAListIsAClearErrorNamingTheAttribute() {
    Map<String, Object> map = new HashMap<>();
    map.put("children", List.of(map));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> codec.typeName("tree", map));
    assertTrue(e.getMessage().contains("'tree'") && e.getMessage().contains("cycle"), e.getMessage());
  }

  @Test
  void sameListTwiceSideBySideIsNoCycle() {
    List<String> shared = List.of("a");
    codec.typeName("twice", List.of(shared, shared));
  }

  @Test
  void deeplyNestedListIsAClearErrorNotAStackOverflow() {
    List<Object> deep = new ArrayList<>();
    List<Object> at = deep;
    for (int i = 0; i < 100_000; i++) {
      List<Object> next = new ArrayList<>();
      at.add(next);
      at = next;
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> codec.typeName("deep", deep));
    assertTrue(e.getMessage().contains("'deep'"), e.getMessage());
  }
}
