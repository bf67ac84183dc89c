package dev.sessionless.propagation;

import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenException.Reason;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The Transaction Token profile's claim mapping on the receiving side: what {@link
 * InternalTokenVerifier} checks after the codec when its profile is {@link
 * TokenProfile#TXN_TOKEN}. The narrowing rule itself is the verifier's, shared with the
 * internal profile ({@code InternalTokenVerifier.bounds}).
 */
final class TransactionTokenCheck {
  private TransactionTokenCheck() {}

  /**
   * The Transaction Token profile's checks: the draft's required claims ({@code txn}, {@code
   * sub}, {@code scope}, {@code req_wl}; {@code iat} by the codec), objects for {@code rctx} and
   * {@code tctx}; then, when the token carries them (this project's minters always do, a token
   * service of the draft need not), the same {@code sid}, {@code act} and bounds rules as the
   * internal profile, the bounds with the parent's scope too.
   */
  static InternalToken check(SessionToken t) {
    String txn = requiredString(t, TransactionTokens.TRANSACTION_ID_CLAIM);
    if (t.subject().isEmpty()) {
      throw new TokenException(Reason.MISSING_CLAIM, "a Transaction Token must name its subject (sub)");
    }
    String scopeText = requiredString(t, TransactionTokens.SCOPE_CLAIM);
    String workload = requiredString(t, TransactionTokens.REQUESTING_WORKLOAD_CLAIM);
    Map<String, Object> rctx = object(t, TransactionTokens.REQUEST_CONTEXT_CLAIM);
    Map<String, Object> tctx = object(t, TransactionTokens.TRANSACTION_CONTEXT_CLAIM);
    if (!t.stateNames().isEmpty()) {
      throw new TokenException(Reason.MALFORMED, "a Transaction Token carries its values in tctx, not st");
    }
    List<String> scope = List.of(scopeText.trim().split(" +"));
    Object sidClaim = InternalTokenVerifier.claim(t, InternalTokens.SESSION_ID_CLAIM, Object.class).orElse("");
    if (!(sidClaim instanceof String)) {
      throw new TokenException(Reason.MALFORMED, "the token's sid claim must be a string");
    }
    List<String> actors = t.claimNames().contains(InternalTokens.ACTOR_CLAIM) ? InternalTokenVerifier.actors(t) : List.of(workload);
    if (!actors.get(0).equals(workload)) {
      throw new TokenException(Reason.MALFORMED,
          "the token's current actor (act.sub) is not the workload that requested it (req_wl)");
    }
    Optional<Map> parent = InternalTokenVerifier.claim(t, InternalTokens.PARENT_CLAIM, Map.class);
    Instant parentExp = t.expiresAt();
    Set<String> parentNames = tctx.keySet();
    if (parent.isPresent()) {
      InternalTokenVerifier.Bounds b = InternalTokenVerifier.bounds(t, parent.get(), tctx.keySet());
      Object ps = parent.get().get(TransactionTokens.PARENT_SCOPE);
      if (!(ps instanceof List) || !((List<?>) ps).stream().allMatch(String.class::isInstance)) {
        throw new TokenException(Reason.MALFORMED, InternalTokens.PARENT_CLAIM + "." + TransactionTokens.PARENT_SCOPE
            + " must list the parent's scope values");
      }
      for (String s : scope) {
        if (!((List<?>) ps).contains(s)) {
          throw new TokenException(Reason.WIDENED, "the token's scope has '" + s
              + "', which the token it was minted from did not: a re-mint may only narrow the scope");
        }
      }
      parentExp = b.exp();
      parentNames = b.stateNames();
    }
    return new InternalToken(t, (String) sidClaim, actors, parentExp, parentNames, t.authTime(),
        new InternalToken.Txn(txn, scope, rctx, tctx));
  }

  private static String requiredString(SessionToken t, String name) {
    Object v = InternalTokenVerifier.claim(t, name, Object.class).orElseThrow(() -> new TokenException(Reason.MISSING_CLAIM,
        "a Transaction Token must carry " + name));
    if (!(v instanceof String) || ((String) v).isBlank()) {
      throw new TokenException(Reason.MALFORMED, "the token's " + name + " claim must be a non-empty string");
    }
    return (String) v;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> object(SessionToken t, String name) {
    Object v = InternalTokenVerifier.claim(t, name, Object.class).orElse(Map.of());
    if (!(v instanceof Map) || !((Map<?, ?>) v).keySet().stream().allMatch(String.class::isInstance)) {
      throw new TokenException(Reason.MALFORMED, "the token's " + name + " claim must be a JSON object");
    }
    return (Map<String, Object>) v;
  }
}
