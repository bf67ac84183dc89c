package dev.sessionless.spring.boot;

import dev.sessionless.core.KeySource;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.micrometer.SessionlessMetrics;
import dev.sessionless.servlet.SessionlessFilter;
import dev.sessionless.webflux.SessionlessWebSessionManager;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Counts Sessionless into the application's Micrometer {@link MeterRegistry} when Micrometer and
 * {@code sessionless-micrometer} are on the class path and a registry bean exists: a {@link
 * SessionlessMetrics} bean, set as the listener of the session adapter (the servlet filter in a
 * servlet application, the {@link SessionlessWebSessionManager} in a reactive one, and their
 * codec) and of the keyring made from {@code sessionless.keys.*}, which it watches for per-key
 * gauges. See {@code sessionless-micrometer}'s README for the meters.
 *
 * <p>Runs before {@link SessionlessAutoConfiguration} and {@link
 * SessionlessWebFluxAutoConfiguration}, so the keyring it makes (with the listener) takes the place
 * of the plain one; an application's own {@link KeySource}, {@link SessionlessMetrics}, {@link
 * SessionlessFilter} or {@code webSessionManager} beans still win. Without Micrometer nothing here
 * loads, and the rest works as before. The two stacks' wiring sits in nested classes, each loaded
 * only when its stack's classes are there, so a reactive application needs no Servlet API.
 */
@AutoConfiguration(before = {SessionlessAutoConfiguration.class, SessionlessWebFluxAutoConfiguration.class}, afterName = {
    "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
    "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration"})
@ConditionalOnWebApplication
@ConditionalOnClass({MeterRegistry.class, SessionlessMetrics.class})
@ConditionalOnBean(MeterRegistry.class)
@ConditionalOnBooleanProperty(name = "sessionless.enabled", matchIfMissing = true)
@EnableConfigurationProperties(SessionlessProperties.class)
public class SessionlessMetricsAutoConfiguration {
  /** Used by Spring; applications do not construct this class. */
  public SessionlessMetricsAutoConfiguration() {}

  /** The listener that counts into the registry. */
  @Bean
  @ConditionalOnMissingBean
  public SessionlessMetrics sessionlessMetrics(MeterRegistry registry) {
    return new SessionlessMetrics(registry);
  }

  /**
   * The live keyring of {@code sessionless.keys.*}, reporting to the metrics and watched by them
   * for per-key gauges; closed with the context.
   */
  @Bean(name = "sessionlessKeyring", destroyMethod = "close")
  @ConditionalOnMissingBean(KeySource.class)
  public Keyring sessionlessKeyring(SessionlessProperties properties, SessionlessMetrics metrics) {
    Keyring keyring = KeyringFactory.build(properties.getKeys(), System::getenv, metrics);
    try {
      metrics.watch(keyring);
    } catch (RuntimeException | Error e) {
      // Not a bean yet: the context would never close it, and its refresh thread would outlive
      // the failed startup.
      keyring.close();
      throw e;
    }
    return keyring;
  }

  /** The servlet side: the metrics are the filter's listener. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
  @ConditionalOnClass(SessionlessFilter.class)
  static class ServletMetrics {
    /** Sets the metrics as the filter's listener. */
    @Bean
    SessionlessFilterCustomizer sessionlessMetricsFilterCustomizer(SessionlessMetrics metrics) {
      return builder -> builder.listener(metrics);
    }
  }

  /** The reactive side: the metrics are the token {@code WebSession} manager's listener. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
  @ConditionalOnClass(SessionlessWebSessionManager.class)
  static class ReactiveMetrics {
    /** Sets the metrics as the session manager's listener. */
    @Bean
    SessionlessWebSessionManagerCustomizer sessionlessMetricsWebSessionManagerCustomizer(SessionlessMetrics metrics) {
      return builder -> builder.listener(metrics);
    }
  }
}
