package dev.sessionless.spring.boot;

import dev.sessionless.core.KeySource;
import dev.sessionless.core.RevocationSource;
import dev.sessionless.core.StateMapper;
import dev.sessionless.core.jackson.JacksonStateMapper;
import dev.sessionless.keyring.Keyring;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import tools.jackson.databind.json.JsonMapper;

/**
 * The beans token sessions need on either stack, imported by {@link
 * SessionlessAutoConfiguration} (servlet) and {@link SessionlessWebFluxAutoConfiguration}
 * (WebFlux): the keyring, the attribute mapper, the revocation source and "log out everywhere".
 * Each backs off when the application defines its own.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(SessionlessProperties.class)
class SessionlessSessionBeans {
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
    return RevocationFactory.build(properties.getRevocation(), keys, SessionOptions.issuerOf(properties, environment),
        SessionOptions.audienceOf(properties, environment));
  }

  /** "Log out everywhere" for application code, writing to the revocation store. */
  @Bean
  @ConditionalOnMissingBean
  public SessionlessSessions sessionlessSessions(ObjectProvider<RevocationSource> revocation,
      SessionlessProperties properties) {
    return new SessionlessSessions(() -> RevocationFactory.single(revocation), properties.getAbsoluteLifetime(),
        Clock.systemUTC());
  }
}
