package dev.sessionless.webflux.internal;

import dev.sessionless.core.TokenException;
import dev.sessionless.session.internal.RequestView;
import dev.sessionless.session.internal.ResponseView;
import dev.sessionless.session.internal.SessionHooks;
import dev.sessionless.session.internal.TokenSession;
import java.time.Instant;
import java.util.Collection;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;

/**
 * The session engine's view of one WebFlux exchange: its request's headers, context path and
 * TLS, its response's headers, and the exchange attributes where a rejection and {@code
 * auth_time} are published. WebFlux has no attribute binding listeners. All in memory.
 *
 * <p>WebFlux calls {@code beforeCommit} actions while the response is already committing
 * ({@code isCommitted()} is true, its headers still writable): {@link #committed()} says false
 * during that action, so the engine writes the cookie there, and true once it is over.
 */
final class ExchangeViews implements RequestView, ResponseView, SessionHooks {
  /** The exchange attribute holding the refused token's {@link TokenException.Reason}. */
  static final String REJECTION_ATTRIBUTE = "dev.sessionless.webflux.rejection";
  /** The exchange attribute holding the session's {@code auth_time} while it has one. */
  static final String AUTH_TIME_ATTRIBUTE = "dev.sessionless.webflux.authTime";

  private final ServerWebExchange exchange;
  /** Inside this adapter's own {@code beforeCommit} action. */
  private volatile boolean committing;

  ExchangeViews(ServerWebExchange exchange) {
    this.exchange = exchange;
  }

  /** Runs {@code action} as the response's {@code beforeCommit} action, headers still open. */
  void committing(Runnable action) {
    committing = true;
    try {
      action.run();
    } finally {
      committing = false;
    }
  }

  @Override
  public Enumeration<String> requestHeaders(String name) {
    return Collections.enumeration(exchange.getRequest().getHeaders().getOrEmpty(name));
  }

  @Override
  public String requestHeader(String name) {
    return exchange.getRequest().getHeaders().getFirst(name);
  }

  @Override
  public String contextPath() {
    return exchange.getRequest().getPath().contextPath().value();
  }

  @Override
  public boolean secure() {
    return exchange.getRequest().getSslInfo() != null;
  }

  @Override
  public boolean committed() {
    return !committing && exchange.getResponse().isCommitted();
  }

  private HttpHeaders headers() {
    return exchange.getResponse().getHeaders();
  }

  @Override
  public void addResponseHeader(String name, String value) {
    headers().add(name, value);
  }

  @Override
  public void setResponseHeader(String name, String value) {
    headers().set(name, value);
  }

  @Override
  public String responseHeader(String name) {
    return headers().getFirst(name);
  }

  @Override
  public Collection<String> responseHeaders(String name) {
    List<String> all = headers().get(name);
    return all == null ? List.of() : all;
  }

  @Override
  public boolean hasResponseHeader(String name) {
    return headers().containsHeader(name);
  }

  @Override
  public void rejected(TokenException.Reason reason) {
    exchange.getAttributes().put(REJECTION_ATTRIBUTE, reason);
  }

  @Override
  public void authTimeChanged(Instant authTime) {
    if (authTime == null) {
      exchange.getAttributes().remove(AUTH_TIME_ATTRIBUTE);
    } else {
      exchange.getAttributes().put(AUTH_TIME_ATTRIBUTE, authTime);
    }
  }

  @Override
  public boolean listens(Class<?> type) {
    return false;
  }

  @Override
  public void bound(TokenSession session, String name, Object value) {
    // WebFlux has no binding listeners.
  }

  @Override
  public void unbound(TokenSession session, String name, Object value) {
    // WebFlux has no binding listeners.
  }
}
