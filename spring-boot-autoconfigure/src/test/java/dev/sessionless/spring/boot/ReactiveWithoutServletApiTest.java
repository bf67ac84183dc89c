package dev.sessionless.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.spring.boot.it.ReactiveWithoutServletApi;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A WebFlux application has no Servlet API on its class path: the reactive auto-configuration
 * must not load a class that needs it. The test class path has both stacks, so this runs {@link
 * ReactiveWithoutServletApi} in a child JVM on the same class path less the servlet jars.
 */
@Timeout(180)
class ReactiveWithoutServletApiTest {
  /** The jars a WebFlux application does not have (sessionless-servlet's own classes it does). */
  private static final Pattern SERVLET_ONLY = Pattern.compile(
      ".*(jakarta\\.servlet-api|tomcat|jetty|webmvc|spring-boot-servlet)[^" + Pattern.quote(File.separator) + "]*\\.jar");

  @Test
  void aReactiveAppLogsInAndKeepsItsCartWithoutTheServletApiOnTheClassPath() throws Exception {
    String full = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    String reactive = Arrays.stream(full.split(File.pathSeparator))
        .filter(e -> !SERVLET_ONLY.matcher(e).matches()).collect(Collectors.joining(File.pathSeparator));
    assertFalse(reactive.equals(full), "the servlet jars are on the test class path: " + full);
    Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", reactive, ReactiveWithoutServletApi.class.getName()).redirectErrorStream(true).start();
    String output;
    try {
      assertTrue(child.waitFor(150, TimeUnit.SECONDS), "the child JVM did not finish");
      output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    } finally {
      child.destroyForcibly();
    }
    List<String> lines = output.lines().filter(l -> l.matches("^[a-z-]+=.*")).toList();
    assertEquals(List.of("servlet-api=false", "login=302", "page=hello alice", "cart=[mug]"), lines, output);
    assertEquals(0, child.exitValue(), output);
  }
}
