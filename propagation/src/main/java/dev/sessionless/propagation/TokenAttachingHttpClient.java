package dev.sessionless.propagation;

import dev.sessionless.propagation.internal.Callee;
import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * An {@link HttpClient} that adds the internal token and {@code traceparent} to every request
 * (the JDK client has no interceptor hook). Everything else goes to the delegate.
 */
final class TokenAttachingHttpClient extends HttpClient {
  private final HttpClient delegate;
  private final Callee callee;

  // A wrapper's fields and constructor, the shape of every wrapper's: nothing to share.
  TokenAttachingHttpClient(HttpClient delegate, Callee callee) {
    this.delegate = delegate;
    this.callee = callee;
  }

  private HttpRequest withHeaders(HttpRequest request) {
    Map<String, String> add = callee.headers(null); // an HttpRequest carries no context: the thread's
    HttpRequest.Builder b = HttpRequest.newBuilder(request, (name, value) -> {
      for (String n : add.keySet()) {
        if (n.equalsIgnoreCase(name)) {
          return false;
        }
      }
      return true;
    });
    add.forEach(b::header);
    return b.build();
  }

  @Override
  public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler)
      throws IOException, InterruptedException {
    return delegate.send(withHeaders(request), handler);
  }

  @Override
  public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
    return delegate.sendAsync(withHeaders(request), handler);
  }

  @Override
  public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler,
      HttpResponse.PushPromiseHandler<T> push) {
    return delegate.sendAsync(withHeaders(request), handler, push);
  }

  // The rest only forwards to the delegate: HttpClient is an abstract class with no forwarding base.

  @Override
  public Optional<CookieHandler> cookieHandler() {
    return delegate.cookieHandler();
  }

  @Override
  public Optional<Duration> connectTimeout() {
    return delegate.connectTimeout();
  }

  @Override
  public Redirect followRedirects() {
    return delegate.followRedirects();
  }

  @Override
  public Optional<ProxySelector> proxy() {
    return delegate.proxy();
  }

  @Override
  public SSLContext sslContext() {
    return delegate.sslContext();
  }

  @Override
  public SSLParameters sslParameters() {
    return delegate.sslParameters();
  }

  @Override
  public Optional<Authenticator> authenticator() {
    return delegate.authenticator();
  }

  @Override
  public Version version() {
    return delegate.version();
  }

  @Override
  public Optional<Executor> executor() {
    return delegate.executor();
  }

  @Override
  public String toString() {
    return callee.describe("TokenAttachingHttpClient");
  }
}
