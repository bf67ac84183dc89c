package dev.sessionless.servlet;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A filter whose init fails leaves nothing running behind it. */
class InitFailureTest {
  /** web.xml's init parameters, as the container hands them to init(). */
  static FilterConfig config(Map<String, String> params) {
    return new FilterConfig() {
      @Override
      public String getFilterName() {
        return "sessionless";
      }

      @Override
      public ServletContext getServletContext() {
        throw new UnsupportedOperationException("not needed by init");
      }

      @Override
      public String getInitParameter(String name) {
        return params.get(name);
      }

      @Override
      public Enumeration<String> getInitParameterNames() {
        return Collections.enumeration(params.keySet());
      }
    };
  }

  private static Set<Thread> keyringThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith("sessionless-keyring-") && t.isAlive())
        .collect(Collectors.toSet());
  }

  @Test
  void initThatFailsAfterTheKeyringStartedStopsTheKeyring(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("keys.jwks");
    Files.writeString(file, KeySet.of(TokenKey.generate("k1", Algorithm.DIR_A256GCM)).toJwksWithSecrets());
    Set<Thread> before = keyringThreads();
    SessionlessFilter filter = new SessionlessFilter();
    // The key file is fine, so the keyring starts; the missing audience fails init afterwards.
    ServletException e = assertThrows(ServletException.class,
        () -> filter.init(config(Map.of("keys.file", file.toString(), "issuer", "https://shop.example"))));
    assertTrue(e.getMessage().contains("sessionless"), e.getMessage());
    List<Thread> left = keyringThreads().stream().filter(t -> !before.contains(t)).collect(Collectors.toList());
    for (Thread t : left) {
      t.join(10_000); // a stopped executor's thread ends on its own; a running one never does
    }
    assertFalse(left.stream().anyMatch(Thread::isAlive), "keyring threads left running: " + left);
  }
}
