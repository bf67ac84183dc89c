package dev.sessionless.spring.boot.security;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.security.oauth2.client.registration.ReactiveClientRegistrationRepository;
import org.springframework.security.oauth2.client.web.server.OAuth2AuthorizationRequestRedirectWebFilter;
import org.springframework.security.oauth2.client.web.server.ServerAuthorizationRequestRepository;
import org.springframework.security.oauth2.client.web.server.ServerOAuth2AuthorizationCodeAuthenticationTokenConverter;
import org.springframework.security.oauth2.client.web.server.WebSessionOAuth2ServerAuthorizationRequestRepository;
import org.springframework.security.oauth2.client.web.server.authentication.OAuth2LoginAuthenticationWebFilter;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2AuthorizationException;
import org.springframework.security.oauth2.core.endpoint.OAuth2AuthorizationRequest;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.security.web.server.WebFilterChainProxy;
import org.springframework.util.ReflectionUtils;
import org.springframework.web.server.WebFilter;

/**
 * Gives the two filters of every reactive chain's {@code oauth2Login()} — the one that redirects
 * to the authorization server and the one that receives its callback — the token-session
 * repository for the authorization request, in place of Spring Security's {@code WebSession}
 * one (which stores the request as an object no token carries). Spring Security offers no bean
 * hook for it (the DSL's {@code authorizationRequestRepository(...)} is the only one), so the
 * built chains are adjusted, as the servlet side's {@link OAuth2LoginRequests} does.
 *
 * <p>A chain is changed only when its redirect filter still has Spring's default repository: the
 * DSL gives both filters the same one, so a repository the application set is left alone, and so
 * is its callback filter. The callback filter gets Spring's own code converter again, with this
 * repository and Spring's error mapping.
 */
final class ServerOAuth2LoginRequests implements BeanPostProcessor {
  private final ObjectProvider<ServerAuthorizationRequestRepository<OAuth2AuthorizationRequest>> repository;
  private final ObjectProvider<ReactiveClientRegistrationRepository> registrations;

  ServerOAuth2LoginRequests(ObjectProvider<ServerAuthorizationRequestRepository<OAuth2AuthorizationRequest>> repository,
      ObjectProvider<ReactiveClientRegistrationRepository> registrations) {
    this.repository = repository;
    this.registrations = registrations;
  }

  /**
   * Adjusts a {@code SecurityWebFilterChain} bean, or each chain of a {@code WebFilterChainProxy}
   * (Spring Security's default chain, built when the application has none, is not a bean).
   */
  @Override
  public Object postProcessAfterInitialization(Object bean, String beanName) {
    if (bean instanceof SecurityWebFilterChain chain) {
      adjust(chain);
    } else if (bean instanceof WebFilterChainProxy proxy) {
      Field field = ReflectionUtils.findField(WebFilterChainProxy.class, "filters");
      if (field != null) {
        ReflectionUtils.makeAccessible(field);
        if (ReflectionUtils.getField(field, proxy) instanceof List<?> chains) {
          chains.forEach(c -> adjust((SecurityWebFilterChain) c));
        }
      }
    }
    return bean;
  }

  private void adjust(SecurityWebFilterChain chain) {
    List<WebFilter> filters = new ArrayList<>();
    // Built from a list: this iterates it on the calling (startup) thread.
    chain.getWebFilters().toIterable().forEach(filters::add);
    boolean springDefault = false;
    for (WebFilter f : filters) {
      if (f instanceof OAuth2AuthorizationRequestRedirectWebFilter redirect && isSpringDefault(redirect)) {
        redirect.setAuthorizationRequestRepository(repository.getObject());
        springDefault = true;
      }
    }
    if (springDefault) {
      for (WebFilter f : filters) {
        if (f instanceof OAuth2LoginAuthenticationWebFilter callback) {
          ServerOAuth2AuthorizationCodeAuthenticationTokenConverter converter =
              new ServerOAuth2AuthorizationCodeAuthenticationTokenConverter(registrations.getObject());
          converter.setAuthorizationRequestRepository(repository.getObject());
          callback.setServerAuthenticationConverter(exchange -> converter.convert(exchange)
              .onErrorMap(OAuth2AuthorizationException.class,
                  e -> new OAuth2AuthenticationException(e.getError(), e.getError().toString())));
        }
      }
    }
  }

  /** Whether the filter still has the {@code WebSession} repository (or cannot tell: then it is replaced). */
  private static boolean isSpringDefault(OAuth2AuthorizationRequestRedirectWebFilter f) {
    return AuthorizationRequestValues.holdsDefault(f, WebSessionOAuth2ServerAuthorizationRequestRepository.class);
  }
}
