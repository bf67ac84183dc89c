/**
 * Spring's HTTP clients attaching internal tokens and {@code traceparent}: {@link
 * dev.sessionless.propagation.spring.InternalTokenInterceptor} for {@code RestClient} and
 * {@code RestTemplate}, {@link dev.sessionless.propagation.spring.InternalTokenExchangeFilter}
 * for {@code WebClient}. Spring is an optional dependency: add {@code spring-web} (and {@code
 * spring-webflux} for {@code WebClient}) to use this package.
 */
package dev.sessionless.propagation.spring;
