package dev.sessionless.spring.boot;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.RevocationSource;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.propagation.InternalTokenMinter;
import dev.sessionless.propagation.InternalTokenVerifier;
import dev.sessionless.propagation.TokenProfile;
import dev.sessionless.propagation.OutgoingTokens;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import org.springframework.core.env.Environment;

/**
 * Builds the propagation beans from {@code sessionless.propagation.*}, failing with a message
 * that names the property to set.
 */
final class PropagationFactory {
  private static final String RECEIVE = "sessionless.propagation.receive.";
  private static final String SEND = "sessionless.propagation.send.";

  private PropagationFactory() {}

  /**
   * One keyring per accepted issuer, each loaded from its JWKS URL now.
   *
   * @throws IllegalStateException naming the property when an issuer is incomplete, repeated,
   *     plain http without permission, or its JWKS cannot be loaded
   */
  public static InternalTokenIssuers issuers(PropagationReceiveProperties p) {
    List<PropagationReceiveProperties.Issuer> list = p.getIssuers();
    if (list.isEmpty()) {
      throw new IllegalStateException(RECEIVE + "audience is set, so at least one accepted issuer is required: set "
          + RECEIVE + "issuers[0].issuer (e.g. https://edge.example) and " + RECEIVE
          + "issuers[0].jwks-url (its JWKS, e.g. https://edge.example/.well-known/jwks.json)");
    }
    Map<String, Keyring> byIssuer = new LinkedHashMap<>();
    try {
      for (int i = 0; i < list.size(); i++) {
        PropagationReceiveProperties.Issuer issuer = list.get(i);
        String at = RECEIVE + "issuers[" + i + "].";
        if (issuer.getIssuer() == null || issuer.getIssuer().isBlank()) {
          throw new IllegalStateException(at + "issuer is required: the iss of the tokens that issuer mints");
        }
        if (byIssuer.containsKey(issuer.getIssuer())) {
          throw new IllegalStateException(at + "issuer repeats issuer '" + issuer.getIssuer()
              + "': list each issuer once");
        }
        byIssuer.put(issuer.getIssuer(), keyring(issuer, at));
      }
    } catch (RuntimeException e) {
      byIssuer.values().forEach(Keyring::close);
      throw e;
    }
    return new InternalTokenIssuers(byIssuer);
  }

  private static Keyring keyring(PropagationReceiveProperties.Issuer issuer, String at) {
    URI url = issuer.getJwksUrl();
    if (url == null) {
      throw new IllegalStateException(at + "jwks-url is required: the JWKS URL of issuer '" + issuer.getIssuer() + "'");
    }
    String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
    if (scheme.equals("http") && !issuer.isAllowInsecurePlainHttp()) {
      throw new IllegalStateException(at + "jwks-url is plain http, so anyone on the network path could replace"
          + " the keys and forge tokens: use https, or, for loopback and tests only, set " + at
          + "allow-insecure-plain-http=true");
    }
    if (!scheme.equals("http") && !scheme.equals("https") || url.getHost() == null) {
      throw new IllegalStateException(at + "jwks-url must be an https URL with a host");
    }
    try {
      return Keyring.builder().jwksUrl(url).httpAllowInsecurePlainHttp(issuer.isAllowInsecurePlainHttp())
          .httpRequiredAtStart(issuer.isRequiredAtStart()).build();
    } catch (RuntimeException e) {
      // The keyring's messages hold no key material and no URL query.
      throw new IllegalStateException("cannot load the keys of issuer '" + issuer.getIssuer() + "' from " + at
          + "jwks-url (" + e.getMessage() + "): its JWKS must be reachable when this service starts, unless "
          + at + "required-at-start=false", e);
    }
  }

  /**
   * The verifier of {@code sessionless.propagation.receive.*} over these issuers, with the
   * revocation source if there is one.
   *
   * @param revocation the application's source or the one of {@code sessionless.revocation.*};
   *     {@code null} for none
   * @throws IllegalStateException naming the property when the audience is empty
   */
  public static InternalTokenVerifier verifier(PropagationReceiveProperties p, InternalTokenIssuers issuers,
      RevocationSource revocation) {
    return verifier(p, issuers, revocation, TokenProfile.INTERNAL);
  }

  /**
   * As {@link #verifier(PropagationReceiveProperties, InternalTokenIssuers, RevocationSource)},
   * for tokens of {@code profile} ({@code sessionless.propagation.profile}, see {@link #profile}).
   */
  public static InternalTokenVerifier verifier(PropagationReceiveProperties p, InternalTokenIssuers issuers,
      RevocationSource revocation, TokenProfile profile) {
    if (p.getAudience() == null || p.getAudience().isBlank()) {
      throw new IllegalStateException(RECEIVE + "audience must not be empty: this service's name in aud"
          + " (with sessionless.propagation.profile=txn-token, the trust domain)");
    }
    InternalTokenVerifier.Builder b = InternalTokenVerifier.builder().profile(profile).audience(p.getAudience());
    issuers.keyrings().forEach(b::issuer);
    if (revocation != null) {
      b.revocation(revocation);
    }
    return b.build();
  }

  /**
   * Checks {@code sessionless.revocation.*} for a service without session keys: a published
   * list then needs its own verification keys.
   *
   * @throws IllegalStateException naming {@code sessionless.revocation.published.keys-file}
   */
  public static void requireRevocationKeys(RevocationProperties p) {
    if (p.getType() == RevocationProperties.Type.PUBLISHED && p.getPublished().getKeysFile() == null) {
      throw new IllegalStateException("sessionless.revocation.type=published on a service without session keys"
          + " (sessionless.enabled=false) needs sessionless.revocation.published.keys-file: a JWKS file with the"
          + " key(s) the publisher signs the revocation list with");
    }
  }

  /**
   * The signing keys of {@code sessionless.propagation.send.keys-file}, loaded now.
   *
   * @throws IllegalStateException naming the property when the file is missing, unreadable,
   *     holds a symmetric key, or has no signing key of the algorithm
   */
  public static InternalTokenSigningKeys signingKeys(PropagationSendProperties p) {
    if (p.getKeysFile() == null) {
      throw new IllegalStateException(SEND + "issuer is set, so " + SEND + "keys-file is required: a JWKS file with"
          + " this service's ES256 or EdDSA signing key (java -jar keyring/target/keyring.jar init --alg ES256 --out FILE)");
    }
    Keyring keyring;
    try {
      keyring = Keyring.builder().jwksFile(p.getKeysFile()).build();
    } catch (RuntimeException e) {
      throw new IllegalStateException("cannot load " + SEND + "keys-file (" + e.getMessage() + ")", e);
    }
    try {
      KeySet keys = keyring.current();
      TreeSet<String> symmetric = new TreeSet<>();
      for (TokenKey k : keys.keys()) {
        if (k.algorithm().isSymmetric()) {
          symmetric.add(k.kid());
        }
      }
      if (!symmetric.isEmpty()) {
        throw new IllegalStateException(SEND + "keys-file holds symmetric key(s) " + symmetric + ": internal tokens"
            + " are signed with ES256 or EdDSA only (with a shared secret every service that verifies could mint)."
            + " Use a file with asymmetric keys only (java -jar keyring/target/keyring.jar init --alg ES256 --out FILE)");
      }
      Algorithm algorithm = algorithm(p.getAlgorithm(), keys);
      return new InternalTokenSigningKeys(keyring, algorithm);
    } catch (RuntimeException e) {
      keyring.close();
      throw e;
    }
  }

  private static Algorithm algorithm(String name, KeySet keys) {
    Algorithm chosen = null;
    if (name != null) {
      for (Algorithm a : List.of(Algorithm.ES256, Algorithm.EDDSA)) {
        if (a.joseName().equalsIgnoreCase(name.trim()) || a.name().equalsIgnoreCase(name.trim())) {
          chosen = a;
        }
      }
      if (chosen == null) {
        throw new IllegalStateException(SEND + "algorithm is '" + name + "': internal tokens are signed with ES256"
            + " or EdDSA only");
      }
    }
    Instant now = Instant.now();
    for (Algorithm a : chosen != null ? List.of(chosen) : List.of(Algorithm.ES256, Algorithm.EDDSA)) {
      if (keys.signingKey(a, now).isPresent()) {
        return a;
      }
    }
    throw new IllegalStateException(SEND + "keys-file has no " + (chosen != null ? chosen.joseName() : "ES256 or EdDSA")
        + " key that signs now (with its private part, active and not retired)"
        + (chosen != null ? "; or set " + SEND + "algorithm to the algorithm of its key" : ""));
  }

  /**
   * The minter of {@code sessionless.propagation.send.*}.
   *
   * @throws IllegalStateException naming the property when the time to live is out of range
   */
  public static InternalTokenMinter minter(PropagationSendProperties p, InternalTokenSigningKeys keys) {
    return minter(p, keys, TokenProfile.INTERNAL);
  }

  /**
   * As {@link #minter(PropagationSendProperties, InternalTokenSigningKeys)}, for tokens of
   * {@code profile}: with {@code txn-token}, {@code send.trust-domain} is required and {@code
   * send.scope} is the scope of the tokens minted at the edge.
   *
   * @throws IllegalStateException naming the property when the time to live is out of range, or
   *     the trust domain or scope do not fit the profile
   */
  public static InternalTokenMinter minter(PropagationSendProperties p, InternalTokenSigningKeys keys,
      TokenProfile profile) {
    try {
      InternalTokenMinter.Builder b = InternalTokenMinter.builder().keys(keys.keyring()).algorithm(keys.algorithm())
          .issuer(p.getIssuer()).timeToLive(p.getTimeToLive()).profile(profile);
      if (p.getTrustDomain() != null) {
        b.trustDomain(p.getTrustDomain());
      }
      if (!p.getScope().isEmpty()) {
        b.scope(p.getScope().toArray(String[]::new));
      }
      return b.build();
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new IllegalStateException("sessionless.propagation.send: " + e.getMessage()
          + " (issuer, time-to-live, trust-domain, scope)", e);
    }
  }

  /**
   * The profile {@code sessionless.propagation.profile} names.
   *
   * @throws IllegalStateException naming the property when it is neither {@code internal} nor
   *     {@code txn-token}
   */
  public static TokenProfile profile(SessionlessPropagationProperties p) {
    try {
      return TokenProfile.fromPropertyValue(p.getProfile());
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("sessionless.propagation.profile: " + e.getMessage(), e);
    }
  }

  /**
   * The outgoing tokens of {@code sessionless.propagation.send.grants}.
   *
   * @throws IllegalStateException naming the property when no audience is granted
   */
  public static OutgoingTokens outgoing(PropagationSendProperties p, InternalTokenMinter minter) {
    if (p.getGrants().isEmpty()) {
      throw new IllegalStateException(SEND + "issuer is set but no callee is granted: set " + SEND
          + "grants.AUDIENCE=STATE,NAMES for each callee (e.g. " + SEND + "grants.orders=cart,tenant), or define"
          + " your own OutgoingTokens bean");
    }
    OutgoingTokens.Builder b = OutgoingTokens.builder().minter(minter);
    if (p.configuredHeader() != null) {
      b.header(p.configuredHeader());
    }
    p.getGrants().forEach((audience, names) -> b.grant(audience, names));
    return b.build();
  }

  /**
   * Refuses a session issuer left to its default ({@code spring.application.name}) that equals
   * an internal token issuer this service sends as or accepts: browser session tokens and
   * internal tokens would then share an {@code iss}, and only their {@code typ} would tell them
   * apart. An issuer set on purpose ({@code sessionless.issuer}) is the application's choice.
   *
   * @throws IllegalStateException naming both properties
   */
  static void refuseIssuerCollision(SessionlessPropagationProperties properties, SessionlessProperties session,
      Environment environment) {
    if (session.getIssuer() != null || !environment.getProperty("sessionless.enabled", Boolean.class, true)) {
      return;
    }
    String derived = SessionOptions.issuerOf(session, environment);
    List<String> named = new ArrayList<>();
    if (derived.equals(properties.getSend().getIssuer())) {
      named.add("sessionless.propagation.send.issuer");
    }
    List<PropagationReceiveProperties.Issuer> accepted = properties.getReceive().getIssuers();
    for (int i = 0; i < accepted.size(); i++) {
      if (derived.equals(accepted.get(i).getIssuer())) {
        named.add("sessionless.propagation.receive.issuers[" + i + "].issuer");
      }
    }
    if (!named.isEmpty()) {
      throw new IllegalStateException("the session issuer defaults to spring.application.name ('" + derived
          + "'), which is also " + String.join(" and ", named) + ": browser session tokens and internal tokens"
          + " would share an issuer. Set sessionless.issuer to another name (e.g. " + derived + "-sessions), or"
          + " give the internal token issuer its own (e.g. https://" + derived + ".internal)");
    }
  }
}
