package dev.sessionless.gateway;

import dev.sessionless.core.internal.SeededRandom;
import dev.sessionless.propagation.EdgeSession;
import dev.sessionless.propagation.reactive.EdgeLogins;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebSession;
import reactor.core.publisher.Mono;

/**
 * {@link EdgeSessionResolver#principalAndWebSession(String)}: the signed-in principal and the
 * exchange's {@code WebSession}, read by the rule the WebFlux edge filter uses ({@link EdgeLogins}:
 * what a login is, and the session's digested id). A login without a started {@code WebSession}
 * gets a per-request id, {@code rq-} and 128 random bits (base64url) from core's {@link
 * SeededRandom}, the one audited source of the session ids, IVs and trace ids elsewhere, seeded
 * when this resolver is made, so no request (on an event loop) waits for entropy. Stateless and
 * thread-safe.
 */
final class PrincipalEdgeSessions implements EdgeSessionResolver {
  /** What starts a per-request id, telling it from a session's digest ({@code ws-}). */
  static final String REQUEST_ID_PREFIX = "rq-";

  private final String subjectAttribute;

  PrincipalEdgeSessions(String subjectAttribute) {
    this.subjectAttribute = subjectAttribute;
    SeededRandom.seed();
  }

  @Override
  public Mono<EdgeSession> resolve(ServerWebExchange exchange, Set<String> stateNames) {
    return EdgeLogins.loginName(exchange).zipWith(exchange.getSession())
        .flatMap(t -> Mono.justOrEmpty(session(t.getT1(), t.getT2(), stateNames)));
  }

  private Optional<EdgeSession> session(Optional<String> principal, WebSession web, Set<String> stateNames) {
    String subject = null;
    if (subjectAttribute != null && web.getAttribute(subjectAttribute) instanceof String s && !s.isEmpty()) {
      subject = s;
    } else if (principal.isPresent() && !principal.get().isEmpty()) {
      subject = principal.get();
    }
    if (subject == null) {
      return Optional.empty();
    }
    EdgeSession.Builder b = EdgeSession.builder().subject(subject);
    if (web.isStarted()) {
      b.sessionId(EdgeLogins.sessionId(web));
      Duration idle = web.getMaxIdleTime();
      if (!idle.isNegative() && !idle.isZero()) {
        b.expiresAt(web.getLastAccessTime().plus(idle));
      }
      for (String name : stateNames) {
        Object value = web.getAttribute(name);
        if (value != null) {
          b.put(name, value);
        }
      }
    } else {
      b.sessionId(REQUEST_ID_PREFIX + SeededRandom.newId());
    }
    return Optional.of(b.build());
  }

  /** The subject attribute only. */
  @Override
  public String toString() {
    return "EdgeSessionResolver[principal and WebSession" + (subjectAttribute == null ? "" : ", subject attribute "
        + subjectAttribute) + "]";
  }
}
