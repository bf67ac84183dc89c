package dev.sessionless.devicebinding.internal;

import dev.sessionless.devicebinding.DbscNames;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/** The algorithms a DBSC proof may use here, ES256 and RS256, checked once for every builder that names them. */
public final class ProofAlgorithms {
  private ProofAlgorithms() {}

  /**
   * {@code first} and {@code more}, in order, without repeats.
   *
   * @throws IllegalArgumentException for any name but ES256 and RS256 ({@code none} and HMAC included)
   */
  public static Set<String> checked(String first, String... more) {
    Set<String> chosen = new LinkedHashSet<>();
    chosen.add(Objects.requireNonNull(first, "first"));
    chosen.addAll(List.of(more));
    for (String a : chosen) {
      if (!a.equals(DbscNames.ES256) && !a.equals(DbscNames.RS256)) {
        throw new IllegalArgumentException("DBSC proofs are accepted with ES256 and RS256 only, not " + a);
      }
    }
    return chosen;
  }
}
