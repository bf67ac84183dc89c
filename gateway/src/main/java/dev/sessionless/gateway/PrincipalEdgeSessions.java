package dev.sessionless.gateway;

import dev.sessionless.propagation.EdgeSession;
import dev.sessionless.propagation.reactive.EdgeLogins;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import java.util.Set;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebSession;
import reactor.core.publisher.Mono;

/**
 * {@link EdgeSessionResolver#principalAndWebSession(String)}: the signed-in principal and the
 * exchange's {@code WebSession}, read by the rule the WebFlux edge filter uses ({@link EdgeLogins}:
 * what a login is, and the session's digested id). Stateless and thread-safe.
 */
final class PrincipalEdgeSessions implements EdgeSessionResolver {
  private static final SecureRandom RANDOM = new SecureRandom();

  private final String subjectAttribute;

  PrincipalEdgeSessions(String subjectAttribute) {
    this.subjectAttribute = subjectAttribute;
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
      b.sessionId(randomId());
    }
    return Optional.of(b.build());
  }

  private static String randomId() {
    byte[] b = new byte[16];
    RANDOM.nextBytes(b);
    return "rq-" + Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  /** The subject attribute only. */
  @Override
  public String toString() {
    return "EdgeSessionResolver[principal and WebSession" + (subjectAttribute == null ? "" : ", subject attribute "
        + subjectAttribute) + "]";
  }
}
