package dev.sessionless.examples.gateway.edge;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The edge: Spring Cloud Gateway (WebFlux, Reactor Netty) with Spring Security's default reactive
 * configuration (form login), whose login session is a Sessionless token, and the routes of
 * {@code application.yml}. Each route's {@code SessionlessInternalToken} filter mints a short-lived
 * internal token for that route's service (its audience) from the logged-in user, and the
 * browser's session cookie stays here. The services verify those tokens with the public keys the
 * gateway publishes at {@code /.well-known/jwks.json}. No code beyond this class: the whole
 * wiring is configuration.
 *
 * <pre>
 * java -jar keyring/target/keyring.jar init --out session-keys.jwks
 * java -jar keyring/target/keyring.jar init --alg ES256 --out signing-keys.jwks
 * java -jar ... --server.port=8080
 * </pre>
 */
@SpringBootApplication
public class GatewayApplication {
  /** Starts the gateway. */
  public static void main(String[] args) {
    SpringApplication.run(GatewayApplication.class, args);
  }
}
