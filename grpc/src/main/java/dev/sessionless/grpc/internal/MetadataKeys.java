package dev.sessionless.grpc.internal;

import io.grpc.Metadata;
import java.util.Locale;

/**
 * The metadata keys of the propagation module's HTTP header names: gRPC carries headers as
 * lower-case ASCII metadata, so {@code Authorization} travels as {@code authorization}, the
 * same header an HTTP/2 peer sees.
 *
 * <p>Not exported.
 */
public final class MetadataKeys {
  private MetadataKeys() {}

  /**
   * The ASCII metadata key for the header {@code name}.
   *
   * @throws IllegalArgumentException if it is no valid ASCII metadata key (such as a {@code -bin} one)
   */
  public static Metadata.Key<String> of(String name) {
    String key = name.toLowerCase(Locale.ROOT);
    if (key.endsWith(Metadata.BINARY_HEADER_SUFFIX) || key.startsWith(":")) {
      throw new IllegalArgumentException("'" + name + "' cannot carry a token as gRPC metadata: use an ASCII header name"
          + " that neither ends in -bin nor starts with ':'");
    }
    return Metadata.Key.of(key, Metadata.ASCII_STRING_MARSHALLER);
  }
}
