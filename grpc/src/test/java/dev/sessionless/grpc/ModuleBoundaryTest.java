package dev.sessionless.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Pins the module boundary: one exported package, the internal one not; and gRPC stays
 * optional for everyone else: the propagation module neither requires it nor names it in its
 * POM, so an application without gRPC never loads it.
 */
@Timeout(60)
class ModuleBoundaryTest {
  static ModuleDescriptor descriptor(String classes) throws IOException {
    try (InputStream in = Files.newInputStream(Path.of(classes, "module-info.class"))) {
      return ModuleDescriptor.read(in);
    }
  }

  @Test
  void moduleExportsOnlyItsApiAndRequiresGrpcApi() throws IOException {
    ModuleDescriptor d = descriptor("target/classes");
    assertEquals(Set.of("dev.sessionless.grpc"),
        d.exports().stream().map(ModuleDescriptor.Exports::source).collect(Collectors.toSet()));
    assertTrue(Files.isDirectory(Path.of("target/classes/dev/sessionless/grpc/internal")), "the internal package, unexported");
    assertTrue(d.requires().stream().anyMatch(r -> r.name().equals("io.grpc")));
  }

  @Test
  void propagationDoesNotDependOnGrpc() throws IOException {
    ModuleDescriptor d = descriptor("../propagation/target/classes");
    assertTrue(d.requires().stream().noneMatch(r -> r.name().startsWith("io.grpc")), String.valueOf(d.requires()));
    assertTrue(!Files.readString(Path.of("../propagation/pom.xml")).contains("io.grpc"), "propagation's POM names no gRPC");
  }
}
