package dev.sessionless.propagation.spring;

import dev.sessionless.propagation.OutgoingTokens;
import dev.sessionless.propagation.internal.Callee;
import java.io.IOException;
import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;

/**
 * Adds the internal token and {@code traceparent} for one callee to every request of a Spring
 * {@code RestClient} (or {@code RestTemplate}), computed from the {@code CallContext} of the
 * calling thread (replacing headers of the same name).
 *
 * <pre>{@code
 * RestClient orders = RestClient.builder().baseUrl(ordersUrl)
 *     .requestInterceptor(new InternalTokenInterceptor(outgoing, "orders")).build();
 * }</pre>
 *
 * <p><b>Redirects.</b> An interceptor sees one request; the request factory follows redirects,
 * re-sending the headers this one set. Spring's default for {@code RestClient.builder()} (the
 * JDK client, {@code HttpClient.newHttpClient()}) follows none, and neither must a factory you
 * give it: a JDK client built with {@code followRedirects(NEVER)}, or in Spring Boot {@code
 * spring.http.clients.redirects=dont-follow} for the {@code RestClient.Builder} it provides
 * (whose default follows them).
 *
 * <p>Needs {@code spring-web} (an optional dependency of this module). Thread-safe.
 */
public final class InternalTokenInterceptor implements ClientHttpRequestInterceptor {
  private final Callee callee;

  /**
   * An interceptor for calls to {@code audience}.
   *
   * @throws IllegalArgumentException if {@code tokens} has no grant for {@code audience}
   */
  public InternalTokenInterceptor(OutgoingTokens tokens, String audience) {
    this.callee = new Callee(tokens, audience);
  }

  /**
   * Adds the headers and proceeds.
   *
   * @throws IllegalStateException if the calling thread has no call context
   */
  @Override
  public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
      throws IOException {
    // The calling thread's context: RestClient runs its interceptors on the calling thread.
    callee.headers(null).forEach(request.getHeaders()::set);
    return execution.execute(request, body);
  }

  /** The audience. */
  @Override
  public String toString() {
    return callee.describe("InternalTokenInterceptor");
  }
}
