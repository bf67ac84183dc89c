package dev.sessionless.spring.boot;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.RevocationSource;
import dev.sessionless.core.StateMapper;
import dev.sessionless.core.jackson.JacksonStateMapper;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.servlet.SessionlessFilter;
import dev.sessionless.servlet.SessionlessFilterBuilder;
import jakarta.servlet.DispatcherType;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.StringJoiner;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;
import tools.jackson.databind.json.JsonMapper;

/**
 * Makes every {@code HttpSession} of a servlet application a token: a live {@link Keyring}
 * from {@code sessionless.keys.*}, a {@link SessionlessFilter} from the other {@code
 * sessionless.*} properties, and its registration ahead of Spring Security's filter chain.
 *
 * <p>Each bean backs off when the application defines its own: a {@link KeySource} (for example
 * a fixed {@code KeySet} or its own {@code Keyring}), a {@link SessionlessFilter}, or a {@code
 * FilterRegistrationBean} named {@code sessionlessFilterRegistration}. The keyring made here is
 * closed with the application context.
 *
 * <p>Session attributes are written and read with the application's own Jackson 3 {@code
 * JsonMapper} bean (Boot's, with its modules, naming strategy and date settings) when there is
 * one, else with Sessionless's default; an application that defines a {@link StateMapper} bean
 * (e.g. {@code Jackson2StateMapper.of(objectMapper)}) uses that instead.
 *
 * <p>Tokens are encrypted by default ({@code sessionless.algorithm=DIR_A256GCM}, compressed
 * with {@code zip: DEF} as the filter does unless {@code sessionless.compress} or {@code
 * sessionless.compression} says otherwise). Startup fails, with a message naming what to set or
 * remove, when no key source is configured, when the keys can only sign under that default (the
 * message names {@code sessionless.algorithm=HS256}), or when Spring Session's {@code
 * SessionRepositoryFilter} is present too (two session mechanisms cannot share the requests:
 * pick one).
 */
@AutoConfiguration(afterName = "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration")
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({SessionlessFilter.class, FilterRegistrationBean.class})
@ConditionalOnBooleanProperty(name = "sessionless.enabled", matchIfMissing = true)
@EnableConfigurationProperties(SessionlessProperties.class)
public class SessionlessAutoConfiguration {
  private static final Log LOG = LogFactory.getLog(SessionlessAutoConfiguration.class);
  private static final String SPRING_SESSION_FILTER = "org.springframework.session.web.http.SessionRepositoryFilter";

  /** Used by Spring; applications do not construct this class. */
  public SessionlessAutoConfiguration() {}

  /**
   * The live keyring of {@code sessionless.keys.*}, closed with the context.
   *
   * @throws IllegalStateException naming {@code sessionless.keys.file} and its siblings when no
   *     key source is configured
   */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean(KeySource.class)
  public Keyring sessionlessKeyring(SessionlessProperties properties) {
    return KeyringFactory.build(properties.getKeys(), System::getenv);
  }

  /**
   * How session attributes become JSON: the application's own Jackson 3 {@code JsonMapper} bean
   * if it has one (rebuilt only to refuse trailing data; refused if it enables default typing),
   * else the default {@link StateMapper}.
   */
  @Bean
  @ConditionalOnMissingBean(StateMapper.class)
  public StateMapper sessionlessStateMapper(ObjectProvider<JsonMapper> jsonMapper) {
    JsonMapper app = jsonMapper.getIfUnique();
    return app == null ? StateMapper.defaults() : JacksonStateMapper.of(app);
  }

  /**
   * The filter, configured from {@code sessionless.*}, then {@code server.servlet.session.*}
   * where those are unset, then every {@link SessionlessFilterCustomizer}. Logs a warning naming
   * each {@code server.servlet.session.*} property set that token sessions do not honour.
   *
   * @throws SessionlessStartupException naming {@code sessionless.algorithm=HS256} when the
   *     algorithm is the default (DIR_A256GCM) but the keys hold only keys that sign
   */
  @Bean
  @ConditionalOnMissingBean(SessionlessFilter.class)
  public SessionlessFilter sessionlessFilter(SessionlessProperties properties, KeySource keys,
      StateMapper stateMapper, Environment environment,
      ObjectProvider<SessionlessFilterCustomizer> customizers) {
    ServerSessionSettings server = ServerSessionSettings.of(environment);
    for (String name : server.unmapped()) {
      LOG.warn(name + " is set but does not apply to Sessionless token sessions; see the"
          + " sessionless.* properties (the session lives in a token, not in the container)");
    }
    Algorithm algorithm = algorithm(properties.getAlgorithm());
    SessionlessFilterBuilder b = SessionlessFilter.builder().keys(keys).stateMapper(stateMapper)
        .issuer(issuer(properties, environment))
        .audience(audience(properties, environment))
        .absoluteLifetime(properties.getAbsoluteLifetime())
        .renewalFraction(properties.getRenewalFraction());
    if (algorithm != Algorithm.DIR_A256GCM) {
      b.algorithm(algorithm); // the filter says once, at INFO, that signed tokens are readable
    }
    // else left to the filter: its default, dir (A256GCM), with its default compression (zip DEF)
    // unless sessionless.compress or sessionless.compression says otherwise, and its key check
    Duration timeout = properties.getTimeout() != null ? properties.getTimeout() : server.timeout().orElse(null);
    if (timeout != null) {
      b.maxInactiveInterval(timeout);
    }
    CookieProperties cookie = properties.getCookie();
    if (properties.getHeader() != null) {
      b.header(properties.getHeader());
    } else {
      first(cookie.getName(), server.cookie("name").orElse(null), b::cookieName);
      first(cookie.getDomain(), server.cookie("domain").orElse(null), b::cookieDomain);
      first(cookie.getPath(), server.cookie("path").orElse(null), b::cookiePath);
      first(cookie.getSameSite(), server.cookie("same-site").orElse(null), b::cookieSameSite);
      first(cookie.getMaxAge(), server.cookieMaxAge().orElse(null), b::cookieMaxAge);
      first(cookie.getSecure(), server.cookieSecure().orElse(null), b::cookieSecure);
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
    b.onBadAttribute(properties.getOnBadAttribute());
    customizers.orderedStream().forEach(c -> c.customize(b));
    try {
      return b.build();
    } catch (IllegalStateException e) {
      String others = algorithm == Algorithm.DIR_A256GCM ? signingOnly(keys) : null;
      if (others != null) {
        throw new SessionlessStartupException("sessionless.algorithm is DIR_A256GCM (encrypted tokens, the"
            + " default) but the keys hold no A256GCM key that can encrypt now, only keys for " + others,
            "Make an A256GCM key file with: java -jar keyring/target/keyring.jar init --out keys.jwks (its"
                + " default), or, to keep tokens that are signed but readable by whoever holds a copy of the"
                + " cookie, set sessionless.algorithm=HS256 (or the key's own algorithm)", e);
      }
      throw e;
    }
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

  /**
   * Registers the filter for every dispatcher type, async-supported, at {@code
   * sessionless.filter.order} (Spring Session's order by default).
   *
   * @throws IllegalStateException if Spring Session's {@code SessionRepositoryFilter} is a bean
   */
  @Bean
  @ConditionalOnMissingBean(name = "sessionlessFilterRegistration")
  public FilterRegistrationBean<SessionlessFilter> sessionlessFilterRegistration(SessionlessFilter filter,
      SessionlessProperties properties, ListableBeanFactory beans) {
    refuseSpringSession(beans);
    FilterRegistrationBean<SessionlessFilter> reg = new FilterRegistrationBean<>(filter);
    reg.setName("sessionlessFilter");
    reg.setOrder(properties.getFilter().getOrder());
    reg.setDispatcherTypes(EnumSet.allOf(DispatcherType.class));
    reg.setAsyncSupported(true);
    reg.addUrlPatterns("/*");
    return reg;
  }

  /**
   * The revocation source of {@code sessionless.revocation.*} ({@code memory}, {@code redis} or
   * {@code published}); none with {@code none}, the default. A Redis store or published list is
   * closed with the context.
   *
   * @throws IllegalStateException naming what to set when that type's settings are incomplete
   */
  @Bean
  @ConditionalOnMissingBean(RevocationSource.class)
  @Conditional(RevocationConfigured.class)
  public RevocationSource sessionlessRevocation(SessionlessProperties properties, KeySource keys,
      Environment environment) {
    return RevocationFactory.build(properties.getRevocation(), keys, issuer(properties, environment),
        audience(properties, environment));
  }

  /**
   * Gives the filter the application's {@link RevocationSource} bean, if there is one: every
   * token is checked against it, and with a store {@code invalidate()} (Spring Security's
   * logout) revokes the session, so a copy of its cookie stops working. Of several, the
   * {@code @Primary} one; several without a primary fail the startup.
   */
  @Bean
  @ConditionalOnMissingBean(name = "sessionlessRevocationCustomizer")
  public SessionlessFilterCustomizer sessionlessRevocationCustomizer(ObjectProvider<RevocationSource> revocation,
      SessionlessProperties properties) {
    return b -> {
      RevocationSource source = RevocationFactory.single(revocation);
      if (source != null) {
        b.revocation(source);
      } else {
        LOG.warn(UNBINDING_LOGOUT + " (sessionless.absolute-lifetime is " + properties.getAbsoluteLifetime() + " here)");
      }
    };
  }

  /**
   * The startup warning without revocation, word for word as the root and Boot READMEs state
   * the limitation.
   */
  static final String UNBINDING_LOGOUT = "With sessionless.revocation.type=none (the default) logout is not binding:"
      + " a copied session token stays usable after logout, renewable up to its absolute lifetime"
      + " (sessionless.absolute-lifetime). Set sessionless.revocation.type to memory (one instance), redis or"
      + " published (several instances) to make logout revoke it.";

  /**
   * With Spring MVC: a session attribute of a type {@code sessionless.attribute-types} does not
   * list is logged once per type naming that property, and answered {@code 500} without a stack
   * trace.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.web.servlet.HandlerExceptionResolver")
  static class WebMvc {
    @Bean
    @ConditionalOnMissingBean(AttributeTypeResolver.class)
    AttributeTypeResolver sessionlessAttributeTypeResolver() {
      return new AttributeTypeResolver();
    }
  }

  /** "Log out everywhere" for application code, writing to the revocation store. */
  @Bean
  @ConditionalOnMissingBean
  public SessionlessSessions sessionlessSessions(ObjectProvider<RevocationSource> revocation,
      SessionlessProperties properties) {
    return new SessionlessSessions(() -> RevocationFactory.single(revocation), properties.getAbsoluteLifetime(),
        Clock.systemUTC());
  }

  /**
   * {@code sessionless.issuer}, else {@code spring.application.name}, else {@code application}:
   * two applications sharing a key file then accept each other's sessions only when told to
   * (the same issuer and audience set on both).
   */
  static String issuer(SessionlessProperties properties, Environment environment) {
    return properties.getIssuer() != null ? properties.getIssuer()
        : environment.getProperty("spring.application.name", "application");
  }

  /** {@code sessionless.audience}, else {@code spring.application.name}, else {@code application}. */
  static String audience(SessionlessProperties properties, Environment environment) {
    return properties.getAudience() != null ? properties.getAudience()
        : environment.getProperty("spring.application.name", "application");
  }

  static void refuseSpringSession(ListableBeanFactory beans) {
    ClassLoader loader = SessionlessAutoConfiguration.class.getClassLoader();
    if (!ClassUtils.isPresent(SPRING_SESSION_FILTER, loader)) {
      return;
    }
    Class<?> type = ClassUtils.resolveClassName(SPRING_SESSION_FILTER, loader);
    String[] names = beans.getBeanNamesForType(type, true, false);
    if (names.length > 0) {
      throw new IllegalStateException("Both Sessionless and Spring Session (bean '" + names[0]
          + "') want to own HttpSession: pick one. Remove Spring Session (spring-session-*), or set"
          + " sessionless.enabled=false");
    }
  }

  private static <T> void first(T own, T boot, java.util.function.Consumer<T> set) {
    if (own != null) {
      set.accept(own);
    } else if (boot != null) {
      set.accept(boot);
    }
  }

  private static Algorithm algorithm(String name) {
    for (Algorithm a : Algorithm.values()) {
      if (a.name().equalsIgnoreCase(name) || a.joseName().equalsIgnoreCase(name)) {
        return a;
      }
    }
    throw new IllegalStateException("sessionless.algorithm is '" + name + "'; use one of HS256, HS384,"
        + " HS512, ES256, EdDSA, DIR_A256GCM");
  }
}
