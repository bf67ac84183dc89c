package dev.sessionless.propagation.okhttp;

import dev.sessionless.propagation.CallContext;
import dev.sessionless.propagation.OutgoingTokens;
import dev.sessionless.propagation.internal.Callee;
import java.io.IOException;
import java.util.Map;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;

/**
 * Adds the internal token and {@code traceparent} for one callee to every request of an
 * {@code OkHttpClient} (an application interceptor).
 *
 * <pre>{@code
 * OkHttpClient orders = new OkHttpClient.Builder()
 *     .addInterceptor(new InternalTokenInterceptor(outgoing, "orders")).build();
 * }</pre>
 *
 * <p>The headers come from the request's {@code CallContext} tag ({@code
 * .tag(CallContext.class, context)}) if it has one, else from the calling thread's context:
 * {@code execute()} runs interceptors on the calling thread, {@code enqueue()} on OkHttp's
 * dispatcher threads, so asynchronous calls need the tag. Without a context the call fails with
 * an {@code IOException} and nothing is sent.
 *
 * <p><b>Redirects.</b> OkHttp follows redirects by default and, for a redirect to another host,
 * drops only the {@code Authorization} header. As an application interceptor ({@code
 * addInterceptor}) it therefore sends the token only in {@code Authorization}; with another
 * header ({@code OutgoingTokens.Builder.header}) the call fails with an {@code IOException}
 * and nothing is sent. As a network interceptor ({@code addNetworkInterceptor}) it sees every
 * hop, and attaches the token only to hops of the call's own origin (scheme, host and port),
 * removing the header from any other: use that with another header.
 *
 * <p>Needs OkHttp 4 (an optional dependency of this module). Thread-safe.
 */
public final class InternalTokenInterceptor implements Interceptor {
  private final Callee callee;

  /**
   * An interceptor for calls to {@code audience}.
   *
   * @throws IllegalArgumentException if {@code tokens} has no grant for {@code audience}
   */
  public InternalTokenInterceptor(OutgoingTokens tokens, String audience) {
    this.callee = new Callee(tokens, audience);
  }

  @Override
  public Response intercept(Chain chain) throws IOException {
    Request request = chain.request();
    if (chain.connection() != null && !sameOrigin(request.url(), chain.call().request().url())) {
      // A network interceptor sees every hop: one a redirect led to another origin gets no token.
      return chain.proceed(request.newBuilder().removeHeader(callee.tokenHeader()).build());
    }
    if (chain.connection() == null && !"Authorization".equalsIgnoreCase(callee.tokenHeader())) {
      throw new IOException("the internal token goes in " + callee.tokenHeader() + ", which OkHttp would carry along a "
          + "redirect to another host (it drops only Authorization): add this interceptor with "
          + "addNetworkInterceptor, or send the token in Authorization; nothing was sent");
    }
    Map<String, String> headers;
    try {
      headers = callee.headers(request.tag(CallContext.class));
    } catch (IllegalStateException e) {
      // OkHttp's calls fail with IOException (enqueue's onFailure sees nothing else).
      throw new IOException("no internal token for the call to " + callee.audience() + ": " + e.getMessage(), e);
    }
    Request.Builder b = request.newBuilder();
    headers.forEach(b::header);
    return chain.proceed(b.build());
  }

  private static boolean sameOrigin(HttpUrl a, HttpUrl b) {
    return a.scheme().equals(b.scheme()) && a.host().equals(b.host()) && a.port() == b.port();
  }

  /** The audience. */
  @Override
  public String toString() {
    return callee.describe("InternalTokenInterceptor");
  }
}
