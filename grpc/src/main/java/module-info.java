/**
 * Sessionless gRPC: client and server interceptors for grpc-java that carry the propagation
 * module's internal tokens and {@code traceparent} in call metadata, and verify them on the
 * receiving side.
 *
 * <p>Exports {@code dev.sessionless.grpc}; {@code dev.sessionless.grpc.internal} is not
 * exported. grpc-java's API ({@code io.grpc}) is the application's: this module compiles
 * against it and brings no transport.
 */
module dev.sessionless.grpc {
  requires transitive dev.sessionless.propagation;
  requires transitive io.grpc;

  exports dev.sessionless.grpc;
}
