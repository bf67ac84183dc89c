package dev.sessionless.spring.boot.security;

import jakarta.servlet.Filter;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.security.oauth2.client.web.AuthorizationRequestRepository;
import org.springframework.security.oauth2.client.web.HttpSessionOAuth2AuthorizationRequestRepository;
import org.springframework.security.oauth2.client.web.OAuth2AuthorizationRequestRedirectFilter;
import org.springframework.security.oauth2.client.web.OAuth2LoginAuthenticationFilter;
import org.springframework.security.oauth2.core.endpoint.OAuth2AuthorizationRequest;
import org.springframework.security.web.SecurityFilterChain;

/**
 * Gives the two filters of every chain's {@code oauth2Login()} — the one that redirects to the
 * authorization server and the one that receives its callback — the token-session repository
 * for the authorization request, in place of Spring Security's {@code HttpSession} one. Spring
 * Security offers no bean hook for this (the DSL's {@code authorizationRequestRepository(...)}
 * is the only one), so the built chains are adjusted; a repository the application set in its
 * chain (of any other class) is left alone.
 */
final class OAuth2LoginRequests implements BeanPostProcessor {
  private final ObjectProvider<AuthorizationRequestRepository<OAuth2AuthorizationRequest>> repository;

  OAuth2LoginRequests(ObjectProvider<AuthorizationRequestRepository<OAuth2AuthorizationRequest>> repository) {
    this.repository = repository;
  }

  @Override
  public Object postProcessAfterInitialization(Object bean, String beanName) {
    if (bean instanceof SecurityFilterChain) {
      for (Filter f : ((SecurityFilterChain) bean).getFilters()) {
        if (f instanceof OAuth2AuthorizationRequestRedirectFilter && isSpringDefault(f)) {
          ((OAuth2AuthorizationRequestRedirectFilter) f).setAuthorizationRequestRepository(repository.getObject());
        } else if (f instanceof OAuth2LoginAuthenticationFilter && isSpringDefault(f)) {
          ((OAuth2LoginAuthenticationFilter) f).setAuthorizationRequestRepository(repository.getObject());
        }
      }
    }
    return bean;
  }

  /** Whether the filter still has the {@code HttpSession} repository (or cannot tell: then it is replaced). */
  private static boolean isSpringDefault(Filter f) {
    return AuthorizationRequestValues.holdsDefault(f, HttpSessionOAuth2AuthorizationRequestRepository.class);
  }
}
