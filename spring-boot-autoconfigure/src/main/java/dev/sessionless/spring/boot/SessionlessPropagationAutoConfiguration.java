package dev.sessionless.spring.boot;

import dev.sessionless.core.RevocationSource;
import dev.sessionless.propagation.EdgeContextFilter;
import dev.sessionless.propagation.InternalTokenFilter;
import dev.sessionless.propagation.InternalTokenMinter;
import dev.sessionless.propagation.InternalTokenVerifier;
import dev.sessionless.propagation.JwksServlet;
import dev.sessionless.propagation.OutgoingTokens;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import java.util.EnumSet;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * Internal tokens in a servlet application, with {@code sessionless-propagation} on the class
 * path: the receiving side when {@code sessionless.propagation.receive.audience} is set, the
 * sending side when {@code sessionless.propagation.send.issuer} is set. Neither depends on the
 * session part ({@code sessionless.enabled}): a service that only receives sets {@code
 * sessionless.enabled=false} and needs no session keys.
 *
 * <p><b>Receiving</b>: an {@link InternalTokenIssuers} bean (one keyring per accepted issuer
 * over its JWKS URL, closed with the context), an {@link InternalTokenVerifier} (with the
 * application's {@link RevocationSource} bean, or else the one {@code sessionless.revocation.*}
 * describes), an {@link InternalTokenFilter} and its registration for {@code
 * sessionless.propagation.receive.url-patterns} at {@code
 * sessionless.propagation.receive.filter-order}. With Spring Security, {@code
 * InternalTokenSecurityAutoConfiguration} makes each verified token the request's
 * authentication.
 *
 * <p><b>Sending</b>: an {@link InternalTokenSigningKeys} bean (the ES256 or EdDSA keys of {@code
 * sessionless.propagation.send.keys-file}, closed with the context), an {@link
 * InternalTokenMinter}, {@link OutgoingTokens} for {@code sessionless.propagation.send.grants},
 * a {@link JwksServlet} at {@code sessionless.propagation.send.jwks.path} (served by a filter
 * ahead of every other, Spring Security's included) and an {@link
 * EdgeContextFilter} after the session filter. Outgoing clients are not wrapped automatically:
 * add {@code new InternalTokenInterceptor(outgoing, "orders")} to a {@code RestClient}.
 *
 * <p>Every bean backs off when the application defines its own (of that type, or for the
 * registrations, of that name). Incomplete configuration fails the startup with a message that
 * names the property to set.
 */
@AutoConfiguration(after = SessionlessAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({InternalTokenVerifier.class, FilterRegistrationBean.class})
@EnableConfigurationProperties({SessionlessPropagationProperties.class, SessionlessProperties.class})
@Import({PropagationTokenBeans.Receive.class, PropagationTokenBeans.Send.class, PropagationTokenBeans.Outgoing.class})
public class SessionlessPropagationAutoConfiguration {
  /** The JWKS endpoint's filter order: before the session filter (+50) and everything after it. */
  static final int JWKS_ORDER = Integer.MIN_VALUE + 40;

  /** Used by Spring; applications do not construct this class. */
  public SessionlessPropagationAutoConfiguration() {}

  /** The receiving side. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnProperty(prefix = "sessionless.propagation.receive", name = "audience")
  static class Receive {
    /** The filter: {@code 401} without a valid token, {@code 503} on failures on this side. */
    @Bean
    @ConditionalOnMissingBean
    InternalTokenFilter sessionlessInternalTokenFilter(SessionlessPropagationProperties properties,
        InternalTokenVerifier verifier) {
      InternalTokenFilter.Builder b = InternalTokenFilter.builder().verifier(verifier);
      if (properties.getReceive().configuredHeader() != null) {
        b.header(properties.getReceive().configuredHeader());
      }
      return b.build();
    }

    /** Registers the filter for the configured URL patterns, before Spring Security. */
    @Bean
    @ConditionalOnMissingBean(name = "sessionlessInternalTokenFilterRegistration")
    FilterRegistrationBean<InternalTokenFilter> sessionlessInternalTokenFilterRegistration(
        InternalTokenFilter filter, SessionlessPropagationProperties properties) {
      PropagationReceiveProperties p = properties.getReceive();
      if (p.getUrlPatterns().isEmpty() || p.getUrlPatterns().stream().anyMatch(s -> s == null || s.isBlank())) {
        throw new IllegalStateException("sessionless.propagation.receive.url-patterns is empty: list the paths"
            + " that require an internal token (e.g. /internal/*), or leave it unset for every request (/*)");
      }
      FilterRegistrationBean<InternalTokenFilter> reg = new FilterRegistrationBean<>(filter);
      reg.setName("sessionlessInternalTokenFilter");
      reg.setOrder(p.getFilterOrder());
      // The first dispatch verifies; the verified token stays a request attribute for later ones.
      reg.setDispatcherTypes(EnumSet.of(DispatcherType.REQUEST));
      reg.setAsyncSupported(true);
      reg.setUrlPatterns(p.getUrlPatterns());
      return reg;
    }
  }

  /** The sending side. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnProperty(prefix = "sessionless.propagation.send", name = "issuer")
  static class Send {
    /**
     * Publishes the signing keys' public parts at {@code sessionless.propagation.send.jwks.path},
     * as a filter ahead of every other one (the session filter, the internal token filter,
     * Spring Security's chain): the keys are public, and the application's security rules stay
     * exactly as it wrote them.
     */
    @Bean
    @ConditionalOnMissingBean(name = "sessionlessJwksRegistration")
    @ConditionalOnBooleanProperty(name = "sessionless.propagation.send.jwks.enabled", matchIfMissing = true)
    FilterRegistrationBean<JwksEndpointFilter> sessionlessJwksRegistration(SessionlessPropagationProperties properties,
        InternalTokenSigningKeys keys) {
      PropagationSendProperties.Jwks p = properties.getSend().getJwks();
      if (p.getPath() == null || !p.getPath().startsWith("/") || p.getPath().contains("*")) {
        throw new IllegalStateException("sessionless.propagation.send.jwks.path must be a path starting with /"
            + " (no wildcard), e.g. /.well-known/jwks.json");
      }
      JwksServlet servlet;
      try {
        servlet = JwksServlet.builder().keys(keys.keyring()).maxAge(p.getMaxAge()).build();
      } catch (IllegalArgumentException e) {
        throw new IllegalStateException("sessionless.propagation.send.jwks.max-age: " + e.getMessage(), e);
      }
      FilterRegistrationBean<JwksEndpointFilter> reg = new FilterRegistrationBean<>(new JwksEndpointFilter(servlet, p.getPath()));
      reg.setName("sessionlessJwks");
      reg.setOrder(JWKS_ORDER);
      reg.setDispatcherTypes(EnumSet.of(DispatcherType.REQUEST));
      reg.addUrlPatterns(p.getPath());
      return reg;
    }

    /**
     * Binds each request's session and trace for outgoing calls; after the session filter
     * ({@code sessionless.filter.order} + 5 unless set), before the internal token filter, so
     * that on paths that receive a token the token's context is the one calls use.
     */
    @Bean
    @ConditionalOnMissingBean(name = "sessionlessEdgeContextFilterRegistration")
    @ConditionalOnBooleanProperty(name = "sessionless.propagation.send.edge-filter.enabled", matchIfMissing = true)
    FilterRegistrationBean<Filter> sessionlessEdgeContextFilterRegistration(
        SessionlessPropagationProperties properties, SessionlessProperties session) {
      PropagationSendProperties p = properties.getSend();
      // The subject: the named session attribute, else the name of the Spring Security login
      // that the token session keeps (read through a view of the session, only when minting).
      Filter filter = p.getSubjectAttribute() != null
          ? EdgeContextFilter.builder().subjectAttribute(p.getSubjectAttribute()).build()
          : new EdgeSubjectFilter(
              EdgeContextFilter.builder().subjectAttribute(EdgeSubjectFilter.SUBJECT_ATTRIBUTE).build());
      FilterRegistrationBean<Filter> reg = new FilterRegistrationBean<>(filter);
      reg.setName("sessionlessEdgeContextFilter");
      Integer order = p.getEdgeFilter().getOrder();
      reg.setOrder(order != null ? order : session.getFilter().getOrder() + 5);
      reg.setDispatcherTypes(EnumSet.of(DispatcherType.REQUEST));
      reg.setAsyncSupported(true);
      reg.addUrlPatterns("/*");
      return reg;
    }
  }
}
