package dev.sessionless.core.leak;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Claims;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Encodes and decodes with every algorithm, reads state, imports a JWKS: what a webapp does
 * with the library. Loaded by {@code ClassLoaderLeakTest} in a throwaway class loader and run on
 * a long-lived thread of the parent loader; it keeps nothing itself.
 */
public class LeakDriver implements Callable<String> {
  @Override
  public String call() {
    StringBuilder out = new StringBuilder();
    for (Algorithm a : Algorithm.values()) {
      KeySet keys = KeySet.fromJwks(KeySet.of(TokenKey.generate("k-" + a, a)).toJwksWithSecrets());
      TokenCodec.Builder b = TokenCodec.builder().keys(keys).algorithm(a).issuer("i").audience("a")
          .timeToLive(Duration.ofMinutes(5));
      if (a.isEncrypting()) {
        b.compress(true);
      }
      TokenCodec codec = b.build();
      String token = codec.encode(Claims.builder().subject("s").put("cart", Map.of("items", List.of(1, 2, 3))).build());
      for (int i = 0; i < 3; i++) {
        SessionToken t = codec.decode(i == 0 ? token : new String(token.toCharArray()));
        out.append(t.get("cart", Map.class).orElseThrow().size());
      }
      codec.encode(codec.decode(token).toClaims().put("step", 2).build());
    }
    return out.toString();
  }
}
