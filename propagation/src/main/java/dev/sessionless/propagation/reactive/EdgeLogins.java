package dev.sessionless.propagation.reactive;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.Principal;
import java.util.Base64;
import java.util.Optional;
import org.springframework.util.ClassUtils;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebSession;
import reactor.core.publisher.Mono;

/**
 * How a WebFlux edge reads who is signed in and which browser session a token speaks for: the
 * one rule {@link EdgeContextWebFilter} and the gateway's default session resolver share.
 *
 * <ul>
 *   <li><b>A login</b> is an exchange principal with a non-empty name that is not Spring
 *       Security's anonymous authentication and, if it is an {@code Authentication}, is
 *       authenticated. Spring Security is optional: without it on the class path every named
 *       principal is a login.
 *   <li><b>A session id</b> in an internal token is {@code ws-} followed by the unpadded base64url
 *       SHA-256 of {@link WebSession#getId()}: stable per session, but never the id itself, which
 *       with WebFlux's default sessions is the {@code SESSION} cookie's value, a credential that
 *       must not travel to services or into their logs.
 * </ul>
 *
 * <p>Stateless and thread-safe.
 */
public final class EdgeLogins {
  private static final boolean SECURITY = ClassUtils.isPresent(
      "org.springframework.security.core.Authentication", EdgeLogins.class.getClassLoader());

  private EdgeLogins() {}

  /**
   * The name of the exchange's signed-in user, if it has one (see the class comment); never an
   * error, and empty for an anonymous or unauthenticated principal.
   */
  public static Mono<Optional<String>> loginName(ServerWebExchange exchange) {
    return exchange.getPrincipal().filter(EdgeLogins::isLogin).map(p -> Optional.of(p.getName()))
        .defaultIfEmpty(Optional.empty());
  }

  /** Whether {@code p} is a login: named, not anonymous, and authenticated if Spring Security's. */
  public static boolean isLogin(Principal p) {
    if (p == null || p.getName() == null || p.getName().isEmpty()) {
      return false;
    }
    return !SECURITY || SecurityCheck.authenticated(p);
  }

  /**
   * The id an internal token carries for {@code session}: {@code ws-} and the SHA-256 of its id,
   * which cannot be turned back into the session cookie's value.
   */
  public static String sessionId(WebSession session) {
    try {
      byte[] h = MessageDigest.getInstance("SHA-256").digest(session.getId().getBytes(StandardCharsets.UTF_8));
      return "ws-" + Base64.getUrlEncoder().withoutPadding().encodeToString(h);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JVM has no SHA-256, which every Java SE runtime must have", e);
    }
  }

  /** Loaded only when Spring Security is on the class path. */
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
}
