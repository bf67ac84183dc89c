package dev.sessionless.gateway;

import dev.sessionless.propagation.EdgeSession;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.Principal;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import java.util.Set;
import org.springframework.util.ClassUtils;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebSession;
import reactor.core.publisher.Mono;

/**
 * {@link EdgeSessionResolver#principalAndWebSession(String)}: the authenticated principal and the
 * exchange's {@code WebSession}. Stateless and thread-safe.
 */
final class PrincipalEdgeSessions implements EdgeSessionResolver {
  private static final boolean SECURITY = ClassUtils.isPresent(
      "org.springframework.security.core.Authentication", PrincipalEdgeSessions.class.getClassLoader());
  private static final SecureRandom RANDOM = new SecureRandom();

  private final String subjectAttribute;

  PrincipalEdgeSessions(String subjectAttribute) {
    this.subjectAttribute = subjectAttribute;
  }

  @Override
  public Mono<EdgeSession> resolve(ServerWebExchange exchange, Set<String> stateNames) {
    Mono<Optional<String>> principal = exchange.getPrincipal()
        .filter(PrincipalEdgeSessions::authenticated)
        .map(p -> Optional.of(p.getName()))
        .defaultIfEmpty(Optional.empty());
    return principal.zipWith(exchange.getSession())
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
      b.sessionId(digest(web.getId()));
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

  /** Whether {@code p} is a login: not Spring Security's anonymous one, nor unauthenticated. */
  private static boolean authenticated(Principal p) {
    return !SECURITY || SecurityCheck.authenticated(p);
  }

  /** A stable id that cannot be turned back into the session cookie's value. */
  static String digest(String webSessionId) {
    try {
      byte[] h = MessageDigest.getInstance("SHA-256").digest(webSessionId.getBytes(StandardCharsets.UTF_8));
      return "ws-" + Base64.getUrlEncoder().withoutPadding().encodeToString(h);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JVM has no SHA-256", e);
    }
  }

  private static String randomId() {
    byte[] b = new byte[16];
    RANDOM.nextBytes(b);
    return "rq-" + Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  /** Only loaded when Spring Security is on the class path. */
  private static final class SecurityCheck {
    private SecurityCheck() {}

    static boolean authenticated(Principal p) {
      if (p instanceof org.springframework.security.core.Authentication a) {
        return a.isAuthenticated()
            && !(a instanceof org.springframework.security.authentication.AnonymousAuthenticationToken);
      }
      return true;
    }
  }

  /** The subject attribute only. */
  @Override
  public String toString() {
    return "EdgeSessionResolver[principal and WebSession" + (subjectAttribute == null ? "" : ", subject attribute "
        + subjectAttribute) + "]";
  }
}
