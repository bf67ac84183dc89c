/**
 * gRPC interceptors for internal tokens: {@link dev.sessionless.grpc.InternalTokenClientInterceptor}
 * attaches a token narrowed for the callee, {@link dev.sessionless.grpc.InternalTokenServerInterceptor}
 * verifies it, and {@link dev.sessionless.grpc.GrpcCallContext} gives the verified context to the
 * service code. Nothing in this package returns or accepts null unless its Javadoc says so.
 */
package dev.sessionless.grpc;
