package dev.sessionless.propagation.reactive;

import dev.sessionless.propagation.CallContext;
import dev.sessionless.propagation.InternalToken;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

/**
 * The {@link CallContext} of a WebFlux exchange in Reactor's {@code Context}, where a reactive
 * pipeline finds it on whatever thread it runs: put there by {@link InternalTokenWebFilter} (with
 * the verified {@link InternalToken}) or {@link EdgeContextWebFilter}, read by handlers and by
 * {@code InternalTokenExchangeFilter}, which mints the next call's token from it. No {@code
 * ThreadLocal} is involved.
 *
 * <pre>{@code
 * Mono<String> user = ReactiveCallContext.token().map(t -> t.subject().orElse("-"));
 * }</pre>
 *
 * <p>The keys are the class names, the same strings as the exchange attributes {@link
 * InternalTokenWebFilter#CONTEXT_ATTRIBUTE} and {@link InternalTokenWebFilter#ATTRIBUTE}.
 */
public final class ReactiveCallContext {
  /** The Reactor {@code Context} key of the {@link CallContext}: {@code CallContext.class.getName()}. */
  public static final String KEY = CallContext.class.getName();
  /** The Reactor {@code Context} key of the verified {@link InternalToken}: {@code InternalToken.class.getName()}. */
  public static final String TOKEN_KEY = InternalToken.class.getName();

  private ReactiveCallContext() {}

  /** The call context of the subscribing pipeline, or empty. */
  public static Mono<CallContext> current() {
    return Mono.deferContextual(c -> Mono.justOrEmpty(of(c)));
  }

  /** The verified internal token the service was called with, or empty (at the edge, say). */
  public static Mono<InternalToken> token() {
    return Mono.deferContextual(c -> Mono.justOrEmpty(c.getOrEmpty(TOKEN_KEY)
        .filter(InternalToken.class::isInstance).map(InternalToken.class::cast)));
  }

  /** The call context in {@code view}, if any. */
  public static Optional<CallContext> of(ContextView view) {
    return view.getOrEmpty(KEY).filter(CallContext.class::isInstance).map(CallContext.class::cast);
  }

  /**
   * What puts {@code context} (and its token, if it has one) into a Reactor {@code Context}:
   * {@code mono.contextWrite(ReactiveCallContext.with(context))}, for work started outside the
   * filters.
   */
  public static Function<Context, Context> with(CallContext context) {
    Objects.requireNonNull(context, "context");
    return c -> {
      Context next = c.put(KEY, context);
      return context.token().isPresent() ? next.put(TOKEN_KEY, context.token().get()) : next.delete(TOKEN_KEY);
    };
  }
}
