package dev.sessionless.spring.boot;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Compression;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.StateMapper;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.StringJoiner;
import java.util.function.Consumer;
import org.springframework.core.env.Environment;

/**
 * The options the servlet filter's builder and the WebFlux session manager's builder share, by
 * the name and parameters both use; so {@code sessionless.*} is applied to either by one rule
 * ({@link #apply}), and means the same on both stacks.
 */
interface SessionOptions {
  void keys(KeySource keys);

  void stateMapper(StateMapper mapper);

  void issuer(String issuer);

  void audience(String audience);

  void absoluteLifetime(Duration lifetime);

  void renewalFraction(double fraction);

  void algorithm(Algorithm algorithm);

  void maxInactiveInterval(Duration interval);

  void cookieName(String name);

  void cookieDomain(String domain);

  void cookiePath(String path);

  void cookieSameSite(String sameSite);

  void cookieMaxAge(Duration maxAge);

  void cookieSecure(boolean always);

  void maxCookieChunks(int chunks);

  void compress(boolean compress);

  void compression(Compression compression);

  void acceptCompressedSignedTokens(boolean accept);

  void attributeTypes(Class<?>... types);

  /**
   * These options on {@code builder}: each call goes to its method of the same name and
   * parameters ({@code SessionOptionsTest} checks both builders have them all). What the
   * builder throws is thrown as it is.
   */
  static SessionOptions of(Object builder) {
    return (SessionOptions) Proxy.newProxyInstance(SessionOptions.class.getClassLoader(),
        new Class<?>[] {SessionOptions.class}, (proxy, m, args) -> {
          if (m.getDeclaringClass() == Object.class) {
            return m.invoke(builder, args);
          }
          Method target = builder.getClass().getMethod(m.getName(), m.getParameterTypes());
          try {
            target.invoke(builder, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
          return null;
        });
  }

  /**
   * Applies {@code sessionless.*}, with Boot's {@code server.servlet.session.*} where those are
   * unset and {@code server} is given (the servlet side); the cookie settings only when {@code
   * cookies}. The algorithm is left to the builder's default (encrypted, DIR_A256GCM) unless set
   * otherwise.
   *
   * @return the algorithm {@code sessionless.algorithm} names, for {@link #explain}
   * @throws IllegalStateException naming the property when {@code sessionless.algorithm} is not
   *     one
   */
  static Algorithm apply(SessionOptions b, SessionlessProperties properties, KeySource keys,
      StateMapper stateMapper, Environment environment, ServerSessionSettings server, boolean cookies) {
    Algorithm algorithm = algorithm(properties.getAlgorithm());
    b.keys(keys);
    b.stateMapper(stateMapper);
    b.issuer(issuerOf(properties, environment));
    b.audience(audienceOf(properties, environment));
    b.absoluteLifetime(properties.getAbsoluteLifetime());
    b.renewalFraction(properties.getRenewalFraction());
    if (algorithm != Algorithm.DIR_A256GCM) {
      b.algorithm(algorithm); // the builder says once, at INFO, that signed tokens are readable
    }
    // else left to the builder: its default, dir (A256GCM), with its default compression (zip
    // DEF) unless sessionless.compress or sessionless.compression says otherwise, and its key check
    Duration timeout = properties.getTimeout() != null ? properties.getTimeout()
        : server == null ? null : server.timeout().orElse(null);
    if (timeout != null) {
      b.maxInactiveInterval(timeout);
    }
    if (cookies) {
      CookieProperties cookie = properties.getCookie();
      first(cookie.getName(), server == null ? null : server.cookie("name").orElse(null), b::cookieName);
      first(cookie.getDomain(), server == null ? null : server.cookie("domain").orElse(null), b::cookieDomain);
      first(cookie.getPath(), server == null ? null : server.cookie("path").orElse(null), b::cookiePath);
      first(cookie.getSameSite(), server == null ? null : server.cookie("same-site").orElse(null), b::cookieSameSite);
      first(cookie.getMaxAge(), server == null ? null : server.cookieMaxAge().orElse(null), b::cookieMaxAge);
      first(cookie.getSecure(), server == null ? null : server.cookieSecure().orElse(null), b::cookieSecure);
      if (cookie.getMaxChunks() != null) {
        b.maxCookieChunks(cookie.getMaxChunks());
      }
    }
    if (properties.getCompress() != null) {
      b.compress(properties.getCompress());
    }
    if (properties.getCompression() != null) {
      b.compression(properties.getCompression()); // with compress too: "already set" at startup
    }
    if (properties.getAcceptCompressedSignedTokens() != null) {
      b.acceptCompressedSignedTokens(properties.getAcceptCompressedSignedTokens());
    }
    b.attributeTypes(properties.getAttributeTypes().toArray(new Class<?>[0]));
    return algorithm;
  }

  /**
   * {@code sessionless.issuer}, else {@code spring.application.name}, else {@code application}:
   * two applications sharing a key file then accept each other's sessions only when told to
   * (the same issuer and audience set on both).
   */
  static String issuerOf(SessionlessProperties properties, Environment environment) {
    return properties.getIssuer() != null ? properties.getIssuer()
        : environment.getProperty("spring.application.name", "application");
  }

  /** {@code sessionless.audience}, else {@code spring.application.name}, else {@code application}. */
  static String audienceOf(SessionlessProperties properties, Environment environment) {
    return properties.getAudience() != null ? properties.getAudience()
        : environment.getProperty("spring.application.name", "application");
  }

  /**
   * What a builder's refusal at {@code build()} means for a Boot user: with the default
   * algorithm and keys that can only sign, a {@link SessionlessStartupException} naming {@code
   * sessionless.algorithm=HS256} and how to make an A256GCM key; else {@code e} itself.
   */
  static RuntimeException explain(IllegalStateException e, Algorithm algorithm, KeySource keys) {
    String others = algorithm == Algorithm.DIR_A256GCM ? signingOnly(keys) : null;
    if (others == null) {
      return e;
    }
    return new SessionlessStartupException("sessionless.algorithm is DIR_A256GCM (encrypted tokens, the"
        + " default) but the keys hold no A256GCM key that can encrypt now, only keys for " + others,
        "Make an A256GCM key file with: java -jar keyring/target/keyring.jar init --out keys.jwks (its"
            + " default), or, to keep tokens that are signed but readable by whoever holds a copy of the"
            + " cookie, set sessionless.algorithm=HS256 (or the key's own algorithm)", e);
  }

  /**
   * The algorithms {@code keys} can sign with now, when A256GCM is not one of them; null when it
   * is, when they hold no signing key, or when they cannot be read yet.
   */
  private static String signingOnly(KeySource keys) {
    KeySet now;
    try {
      now = keys.current();
    } catch (RuntimeException notReady) {
      return null;
    }
    Instant at = Instant.now();
    if (now.signingKey(Algorithm.DIR_A256GCM, at).isPresent()) {
      return null;
    }
    StringJoiner others = new StringJoiner(", ");
    for (Algorithm a : Algorithm.values()) {
      if (now.signingKey(a, at).isPresent()) {
        others.add(a.name());
      }
    }
    return others.length() == 0 ? null : others.toString();
  }

  private static <T> void first(T own, T boot, Consumer<T> set) {
    if (own != null) {
      set.accept(own);
    } else if (boot != null) {
      set.accept(boot);
    }
  }

  private static Algorithm algorithm(String name) {
    return algorithm(name, "sessionless.algorithm");
  }

  /** The algorithm {@code name} names (enum or JOSE name); the refusal names {@code property}. */
  static Algorithm algorithm(String name, String property) {
    for (Algorithm a : Algorithm.values()) {
      if (a.name().equalsIgnoreCase(name) || a.joseName().equalsIgnoreCase(name)) {
        return a;
      }
    }
    throw new IllegalStateException(property + " is '" + name + "'; use one of HS256, HS384,"
        + " HS512, ES256, EdDSA, DIR_A256GCM");
  }
}
