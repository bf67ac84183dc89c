package dev.sessionless.grpc;

import dev.sessionless.propagation.CallContext;
import dev.sessionless.propagation.InternalToken;
import io.grpc.Context;
import java.util.Optional;

/**
 * The verified call, as gRPC service code sees it: {@link InternalTokenServerInterceptor} puts
 * the caller's {@link CallContext} (trace and verified {@link InternalToken}) in gRPC's {@link
 * Context} under {@link #KEY}, and the token alone under {@link #TOKEN_KEY}, for every callback
 * of the call; the gRPC twin of the servlet filter's request attribute and {@code
 * InternalTokenFilter.token(request)}.
 *
 * <pre>{@code
 * InternalToken caller = GrpcCallContext.token().orElseThrow();   // inside a service method
 * String user = caller.subject().orElse("-");
 * List<String> chain = caller.actors();                           // e.g. [orders, edge]
 * String trace = GrpcCallContext.current().orElseThrow().traceId();
 * }</pre>
 *
 * <p>The same context is bound as {@link CallContext#current()} on the thread running each
 * callback, so {@code OutgoingTokens} and logging work as in a servlet. Work handed to another
 * thread keeps it with gRPC's {@code Context.current().wrap(...)}; the client interceptor reads
 * {@link #KEY} first.
 *
 * <p>Thread-safe; holds no state of its own.
 */
public final class GrpcCallContext {
  /** The verified call's context (trace, token) in gRPC's {@link Context}. */
  public static final Context.Key<CallContext> KEY = Context.key(CallContext.class.getName());
  /** The verified token of the call in gRPC's {@link Context}. */
  public static final Context.Key<InternalToken> TOKEN_KEY = Context.key(InternalToken.class.getName());

  private GrpcCallContext() {}

  /** The context of the call being served, from gRPC's current {@link Context}, if any. */
  public static Optional<CallContext> current() {
    return Optional.ofNullable(KEY.get());
  }

  /** The verified token of the call being served, from gRPC's current {@link Context}, if any. */
  public static Optional<InternalToken> token() {
    return Optional.ofNullable(TOKEN_KEY.get());
  }
}
