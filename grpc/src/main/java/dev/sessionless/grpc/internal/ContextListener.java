package dev.sessionless.grpc.internal;

import dev.sessionless.propagation.CallContext;
import io.grpc.Context;
import io.grpc.ForwardingServerCallListener;
import io.grpc.ServerCall;
import java.util.function.Function;

/**
 * Runs every callback of a verified call with its gRPC {@link Context} attached and its {@link
 * CallContext} bound to the thread, and lets the server interceptor turn a failure of the
 * service code into an answer ({@code onFailure}: true when it answered, false to let gRPC
 * handle the failure as usual).
 *
 * <p>Not exported. One instance per call; gRPC calls a listener from one thread at a time.
 *
 * @param <Q> the request message type
 */
public final class ContextListener<Q> extends ForwardingServerCallListener.SimpleForwardingServerCallListener<Q> {
  private final Context context;
  private final CallContext call;
  private final Function<RuntimeException, Boolean> onFailure;

  /** Wraps {@code delegate}, the service's listener, for the call with these contexts. */
  public ContextListener(ServerCall.Listener<Q> delegate, Context context, CallContext call,
      Function<RuntimeException, Boolean> onFailure) {
    super(delegate);
    this.context = context;
    this.call = call;
    this.onFailure = onFailure;
  }

  /** Runs {@code step} in the call's contexts; a failure goes to {@code onFailure} first. */
  public static <T> T within(Context context, CallContext call, Function<RuntimeException, Boolean> onFailure,
      java.util.function.Supplier<T> step) {
    Context previous = context.attach();
    try (CallContext.Scope scope = call.open()) {
      return step.get();
    } catch (RuntimeException e) {
      if (Boolean.TRUE.equals(onFailure.apply(e))) {
        return null;
      }
      throw e;
    } finally {
      context.detach(previous);
    }
  }

  private void run(Runnable step) {
    within(context, call, onFailure, () -> {
      step.run();
      return null;
    });
  }

  @Override
  public void onMessage(Q message) {
    run(() -> super.onMessage(message));
  }

  @Override
  public void onHalfClose() {
    run(super::onHalfClose);
  }

  @Override
  public void onCancel() {
    run(super::onCancel);
  }

  @Override
  public void onComplete() {
    run(super::onComplete);
  }

  @Override
  public void onReady() {
    run(super::onReady);
  }
}
