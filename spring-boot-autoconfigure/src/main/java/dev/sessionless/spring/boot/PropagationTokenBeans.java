package dev.sessionless.spring.boot;

import dev.sessionless.core.RevocationSource;
import dev.sessionless.propagation.InternalTokenMinter;
import dev.sessionless.propagation.InternalTokenVerifier;
import dev.sessionless.propagation.OutgoingTokens;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * The propagation beans that do not depend on the web stack, declared once and imported by both
 * {@link SessionlessPropagationAutoConfiguration} (servlet) and {@link
 * SessionlessReactivePropagationAutoConfiguration} (WebFlux): the keys, verifier, minter and
 * outgoing tokens (on WebFlux only when a grant is set). Each backs off when the application
 * defines its own of that type.
 */
final class PropagationTokenBeans {
  private PropagationTokenBeans() {}

  /** The receiving side's beans, when {@code sessionless.propagation.receive.audience} is set. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnProperty(prefix = "sessionless.propagation.receive", name = "audience")
  static class Receive {
    /** One keyring per accepted issuer, loaded now; closed with the context. */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    InternalTokenIssuers sessionlessInternalTokenIssuers(SessionlessPropagationProperties properties,
        SessionlessProperties session, Environment environment) {
      PropagationFactory.refuseIssuerCollision(properties, session, environment);
      return PropagationFactory.issuers(properties.getReceive());
    }

    /**
     * The revocation source of {@code sessionless.revocation.*} for a service without the
     * session part (with it, {@link SessionlessAutoConfiguration} has made it already).
     */
    @Bean
    @ConditionalOnMissingBean(RevocationSource.class)
    @Conditional(RevocationConfigured.class)
    RevocationSource sessionlessRevocation(SessionlessProperties properties, Environment environment) {
      PropagationFactory.requireRevocationKeys(properties.getRevocation());
      return RevocationFactory.build(properties.getRevocation(), null,
          SessionOptions.issuerOf(properties, environment),
          SessionOptions.audienceOf(properties, environment));
    }

    /**
     * The verifier, with the {@link RevocationSource} bean if there is one: of several, the
     * {@code @Primary} one; several without a primary fail the startup.
     */
    @Bean
    @ConditionalOnMissingBean
    InternalTokenVerifier sessionlessInternalTokenVerifier(SessionlessPropagationProperties properties,
        InternalTokenIssuers issuers, ObjectProvider<RevocationSource> revocation) {
      return PropagationFactory.verifier(properties.getReceive(), issuers, RevocationFactory.single(revocation),
          PropagationFactory.profile(properties));
    }
  }

  /** The sending side's beans, when {@code sessionless.propagation.send.issuer} is set. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnProperty(prefix = "sessionless.propagation.send", name = "issuer")
  static class Send {
    /** The signing keys, loaded now; closed with the context. */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    InternalTokenSigningKeys sessionlessInternalTokenSigningKeys(SessionlessPropagationProperties properties) {
      return PropagationFactory.signingKeys(properties.getSend());
    }

    /** The minter. */
    @Bean
    @ConditionalOnMissingBean
    InternalTokenMinter sessionlessInternalTokenMinter(SessionlessPropagationProperties properties,
        InternalTokenSigningKeys keys, SessionlessProperties session, Environment environment) {
      PropagationFactory.refuseIssuerCollision(properties, session, environment);
      return PropagationFactory.minter(properties.getSend(), keys, PropagationFactory.profile(properties));
    }
  }

  /**
   * The tokens for outgoing calls, by {@code sessionless.propagation.send.grants}; with no grant
   * the startup fails naming the property. A servlet application imports it with {@link Send}:
   * its outgoing calls need grants. A WebFlux application imports it only when a grant is set
   * ({@link GrantsConfigured}), since a gateway whose routes name their own audiences needs none.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnProperty(prefix = "sessionless.propagation.send", name = "issuer")
  static class Outgoing {
    /** The tokens for outgoing calls, by the grants. */
    @Bean
    @ConditionalOnMissingBean
    OutgoingTokens sessionlessOutgoingTokens(SessionlessPropagationProperties properties, InternalTokenMinter minter) {
      return PropagationFactory.outgoing(properties.getSend(), minter);
    }
  }

  /** Whether {@code sessionless.propagation.send.grants} names at least one callee. */
  static final class GrantsConfigured extends SpringBootCondition {
    private static final Bindable<Map<String, List<String>>> GRANTS = Bindable.of(ResolvableType.forClassWithGenerics(
        Map.class, ResolvableType.forClass(String.class), ResolvableType.forClassWithGenerics(List.class, String.class)));

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
      boolean granted = Binder.get(context.getEnvironment()).bind("sessionless.propagation.send.grants", GRANTS)
          .map(m -> !m.isEmpty()).orElse(false);
      return granted ? ConditionOutcome.match("sessionless.propagation.send.grants is set")
          : ConditionOutcome.noMatch("sessionless.propagation.send.grants is not set");
    }
  }
}
