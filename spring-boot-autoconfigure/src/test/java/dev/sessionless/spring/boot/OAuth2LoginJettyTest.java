package dev.sessionless.spring.boot;

/** {@link OAuth2LoginTest}'s OIDC login across two instances, on embedded Jetty 12.1. */
class OAuth2LoginJettyTest extends OAuth2LoginTest {
  @Override
  String container() {
    return "jetty";
  }
}
