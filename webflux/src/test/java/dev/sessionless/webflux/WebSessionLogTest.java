package dev.sessionless.webflux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What the manager tells operators goes out under its own logger name, so a WebFlux application
 * can tune or route it without knowing about the servlet filter. The test JVM's {@code
 * System.Logger}s are {@code java.util.logging}'s (no other finder is installed), so a handler on
 * the {@code dev.sessionless} logger sees every message and the logger it came from.
 */
@Timeout(60)
class WebSessionLogTest {
  static final String MANAGER_LOGGER = "dev.sessionless.webflux.SessionlessWebSessionManager";

  /** Held here: {@code java.util.logging} keeps loggers weakly, and a collected one forgets its level. */
  private static final Logger OURS = Logger.getLogger("dev.sessionless");

  private final List<LogRecord> records = new CopyOnWriteArrayList<>();
  private final Handler recorder = new Handler() {
    @Override
    public void publish(LogRecord r) {
      records.add(r);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  };
  private Level before;

  @BeforeEach
  void record() {
    before = OURS.getLevel();
    OURS.setLevel(Level.ALL); // System.Logger's DEBUG is FINE here
    recorder.setLevel(Level.ALL);
    OURS.addHandler(recorder);
  }

  @AfterEach
  void stop() {
    OURS.removeHandler(recorder);
    OURS.setLevel(before);
  }

  private List<String> loggersOf(String text) {
    return records.stream().filter(r -> r.getMessage() != null && r.getMessage().contains(text))
        .map(LogRecord::getLoggerName).distinct().collect(Collectors.toList());
  }

  @Test
  void aRejectedTokenIsLoggedUnderTheManagersLoggerNotTheServletFilters() throws Exception {
    try (NettyApp app = new NettyApp(Fixtures.manager().build(), Fixtures.cart())) {
      CookieClient c = new CookieClient();
      c.cookies.put("SESSIONLESS", "not.a.token");
      assertEquals("MALFORMED", c.get(app.base() + "/rejection").body());
    }
    assertEquals(List.of(MANAGER_LOGGER), loggersOf("session token rejected"), records.stream()
        .map(r -> r.getLoggerName() + ": " + r.getMessage()).collect(Collectors.toList()).toString());
  }

  @Test
  void cookieSecureFalseWarnsUnderTheManagersLoggerWithTheWebFluxAdvice() {
    Fixtures.manager().cookieSecure(false).build();
    assertEquals(List.of(MANAGER_LOGGER), loggersOf("cookieSecure(false)"));
    String warning = records.stream().map(LogRecord::getMessage).filter(m -> m.contains("cookieSecure(false)"))
        .findFirst().orElseThrow();
    assertTrue(warning.contains("forwarded-headers transformer"), warning);
    assertFalse(warning.contains("X-Forwarded-Proto"), warning);
  }
}
