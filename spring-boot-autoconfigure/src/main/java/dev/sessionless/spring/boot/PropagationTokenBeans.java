package dev.sessionless.spring.boot;

import dev.sessionless.core.RevocationSource;
import dev.sessionless.propagation.InternalTokenMinter;
import dev.sessionless.propagation.InternalTokenVerifier;
import dev.sessionless.propagation.OutgoingTokens;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The propagation beans that do not depend on the web stack, declared once and imported by both
 * {@link SessionlessPropagationAutoConfiguration} (servlet) and {@link
 * SessionlessReactivePropagationAutoConfiguration} (WebFlux): the keys, verifier, minter and
 * outgoing tokens. Each backs off when the application defines its own of that type.
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
      SessionlessPropagationAutoConfiguration.refuseIssuerCollision(properties, session, environment);
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
          SessionlessAutoConfiguration.issuer(properties, environment),
          SessionlessAutoConfiguration.audience(properties, environment));
    }

    /**
     * The verifier, with the {@link RevocationSource} bean if there is one: of several, the
     * {@code @Primary} one; several without a primary fail the startup.
     */
    @Bean
    @ConditionalOnMissingBean
    InternalTokenVerifier sessionlessInternalTokenVerifier(SessionlessPropagationProperties properties,
        InternalTokenIssuers issuers, ObjectProvider<RevocationSource> revocation) {
      return PropagationFactory.verifier(properties.getReceive(), issuers, RevocationFactory.single(revocation));
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
      SessionlessPropagationAutoConfiguration.refuseIssuerCollision(properties, session, environment);
      return PropagationFactory.minter(properties.getSend(), keys);
    }

    /** The tokens for outgoing calls, by the grants. */
    @Bean
    @ConditionalOnMissingBean
    OutgoingTokens sessionlessOutgoingTokens(SessionlessPropagationProperties properties, InternalTokenMinter minter) {
      return PropagationFactory.outgoing(properties.getSend(), minter);
    }
  }
}
