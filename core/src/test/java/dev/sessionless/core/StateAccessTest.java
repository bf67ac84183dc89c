package dev.sessionless.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.testing.FakeClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StateAccessTest {
  record Point(int x, int y) {}

  final TokenCodec codec = TokenCodec.builder().keys(KeySet.of(TokenKey.generate("k", Algorithm.HS256)))
      .issuer("i").audience("a").timeToLive(Duration.ofMinutes(5))
      .clock(new FakeClock(Instant.parse("2026-11-23T10:00:00Z"))).build();

  @Test
  void absentValueIsEmptyAndPresentOneIsTyped() {
    SessionToken t = codec.decode(codec.encode(Claims.builder().put("p", new Point(1, 2)).build()));
    assertTrue(t.get("missing", Point.class).isEmpty());
    assertEquals(new Point(1, 2), t.get("p", Point.class).orElseThrow());
    assertTrue(t.has("p"));
  }

  @Test
  void genericTypesReadThroughReflectType() throws Exception {
    SessionToken t = codec.decode(codec.encode(Claims.builder()
        .put("pts", List.of(new Point(1, 2), new Point(3, 4))).build()));
    java.lang.reflect.Type listOfPoints = StateAccessTest.class.getDeclaredField("typeWitness").getGenericType();
    List<Point> pts = t.<List<Point>>get("pts", listOfPoints).orElseThrow();
    assertEquals(new Point(3, 4), pts.get(1));
  }

  @SuppressWarnings("unused")
  private List<Point> typeWitness;

  @Test
  void valueOfTheWrongShapeIsAStateMappingError() {
    SessionToken t = codec.decode(codec.encode(Claims.builder().put("p", "not a point").build()));
    TokenException e = assertThrows(TokenException.class, () -> t.get("p", Point.class));
    assertEquals(TokenException.Reason.STATE_MAPPING, e.reason());
    assertTrue(e.getMessage().contains("'p'"), e.getMessage());
  }

  @Test
  void unwritableValueIsRefusedAtEncodeNamingIt() {
    Object selfReferencing = new Object() {
      @SuppressWarnings("unused")
      public Object getSelf() {
        return this;
      }
    };
    TokenException e = assertThrows(TokenException.class,
        () -> codec.encode(Claims.builder().put("weird", selfReferencing).build()));
    assertEquals(TokenException.Reason.STATE_MAPPING, e.reason());
    assertTrue(e.getMessage().contains("'weird'"), e.getMessage());
  }

  @Test
  void eachGetReturnsAFreshCopySoMutationDoesNotLeak() {
    SessionToken t = codec.decode(codec.encode(Claims.builder().put("m", Map.of("a", 1)).build()));
    @SuppressWarnings("unchecked")
    Map<String, Object> m = t.get("m", Map.class).orElseThrow();
    m.put("b", 2);
    assertEquals(Map.of("a", 1), t.get("m", Map.class).orElseThrow());
  }

  @Test
  void tooMuchStateIsRefusedAtEncodeWithTheSizes() {
    TokenException e = assertThrows(TokenException.class,
        () -> codec.encode(Claims.builder().put("blob", "x".repeat(10_000)).build()));
    assertEquals(TokenException.Reason.TOO_LARGE, e.reason());
    assertTrue(e.getMessage().contains("8192"), e.getMessage());
  }
}
