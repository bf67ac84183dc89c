package dev.sessionless.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.sessionless.testing.ReadmeBlocks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Keeps the README's route configuration true: its YAML is the file {@link
 * GatewayEdgeEndToEndTest}'s gateway loads, and its Java DSL the lines {@link EdgeGatewayApp}
 * compiles and runs.
 */
@Timeout(10)
class ReadmeExampleTest {
  @Test
  void readmeYamlIsTheConfigurationTheEndToEndGatewayLoads() throws Exception {
    List<String> shown = ReadmeBlocks.markdown(Path.of("README.md"), "readme-yaml");
    List<String> loaded = Files.readAllLines(Path.of("src/test/resources/edge-gateway.yml")).stream()
        .map(String::strip).collect(Collectors.toList());
    assertFalse(shown.isEmpty(), "README.md has no readme-yaml block");
    assertEquals(loaded, shown, "README.md drifted from edge-gateway.yml");
  }

  @Test
  void readmeJavaDslIsTheRouteTheEndToEndGatewayBuilds() throws Exception {
    List<String> shown = ReadmeBlocks.markdown(Path.of("README.md"), "readme-java");
    List<String> compiled = ReadmeBlocks.java(Path.of("src/test/java/dev/sessionless/gateway/EdgeGatewayApp.java"),
        "readme-java");
    assertFalse(shown.isEmpty(), "README.md has no readme-java block");
    assertEquals(compiled, shown, "README.md drifted from EdgeGatewayApp");
  }
}
