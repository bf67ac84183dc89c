package dev.sessionless.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sessionless.servlet.SessionlessFilterBuilder;
import dev.sessionless.webflux.SessionlessWebSessionManagerBuilder;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** One rule for {@code sessionless.*} on both stacks holds only while both builders have every option. */
@Timeout(30)
class SessionOptionsTest {
  @Test
  void bothSessionBuildersHaveEverySharedOptionByNameAndParameters() {
    List<String> missing = new ArrayList<>();
    for (Method m : SessionOptions.class.getDeclaredMethods()) {
      if (java.lang.reflect.Modifier.isStatic(m.getModifiers())) {
        continue;
      }
      for (Class<?> builder : List.of(SessionlessFilterBuilder.class, SessionlessWebSessionManagerBuilder.class)) {
        try {
          builder.getMethod(m.getName(), m.getParameterTypes());
        } catch (NoSuchMethodException e) {
          missing.add(builder.getSimpleName() + "." + m.getName());
        }
      }
    }
    assertEquals(List.of(), missing);
  }
}
