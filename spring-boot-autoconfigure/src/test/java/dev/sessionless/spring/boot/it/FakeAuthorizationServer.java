package dev.sessionless.spring.boot.it;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small OpenID Provider on a loopback port, over real HTTP: discovery, JWKS, an authorization
 * endpoint that approves the one user at once (as a provider does after its own login page) and
 * a token endpoint that checks the code (once only), the redirect URI and the PKCE verifier, and
 * answers with an ID token signed RS256 by a real RSA key (Nimbus). Records what it was sent.
 */
public final class FakeAuthorizationServer implements AutoCloseable {
  /** The user every authorization approves. */
  public static final String USER = "alice";

  private final HttpServer server;
  private final RSAKey key;
  private final String issuer;
  private final String clientId;
  private final SecureRandom random = new SecureRandom();
  private final Map<String, Map<String, String>> codes = new ConcurrentHashMap<>();
  /** The query parameters of every authorization request, in order. */
  public final List<Map<String, String>> authorizations = new CopyOnWriteArrayList<>();
  /** Token requests answered with tokens. */
  public final AtomicInteger tokensIssued = new AtomicInteger();
  /** Token requests refused, with the reason. */
  public final List<String> refusals = new CopyOnWriteArrayList<>();

  private FakeAuthorizationServer(String clientId) throws IOException, JOSEException {
    this.clientId = clientId;
    this.key = new RSAKeyGenerator(2048).keyID("fake-" + random.nextInt(1000)).generate();
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    this.issuer = "http://127.0.0.1:" + server.getAddress().getPort();
    server.createContext("/.well-known/openid-configuration", this::discovery);
    server.createContext("/jwks", e -> send(e, 200, "application/json", new JWKSet(key.toPublicJWK()).toString()));
    server.createContext("/authorize", this::authorize);
    server.createContext("/token", this::token);
    server.start();
  }

  /** Starts a provider that knows one public client, {@code clientId}. */
  public static FakeAuthorizationServer start(String clientId) throws Exception {
    return new FakeAuthorizationServer(clientId);
  }

  /** The issuer URL (also the discovery base). */
  public String issuer() {
    return issuer;
  }

  private void discovery(HttpExchange e) throws IOException {
    String json = "{\"issuer\":\"" + issuer + "\",\"authorization_endpoint\":\"" + issuer + "/authorize\","
        + "\"token_endpoint\":\"" + issuer + "/token\",\"jwks_uri\":\"" + issuer + "/jwks\","
        + "\"response_types_supported\":[\"code\"],\"subject_types_supported\":[\"public\"],"
        + "\"id_token_signing_alg_values_supported\":[\"RS256\"],\"scopes_supported\":[\"openid\",\"profile\",\"email\"],"
        + "\"token_endpoint_auth_methods_supported\":[\"none\"],\"grant_types_supported\":[\"authorization_code\"],"
        + "\"code_challenge_methods_supported\":[\"S256\"]}";
    send(e, 200, "application/json", json);
  }

  private void authorize(HttpExchange e) throws IOException {
    Map<String, String> q = form(e.getRequestURI().getRawQuery());
    authorizations.add(q);
    if (!"code".equals(q.get("response_type")) || !clientId.equals(q.get("client_id"))
        || q.get("redirect_uri") == null || q.get("state") == null) {
      send(e, 400, "text/plain", "bad authorization request");
      return;
    }
    byte[] b = new byte[16];
    random.nextBytes(b);
    String code = Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    codes.put(code, q);
    e.getResponseHeaders().set("Location", q.get("redirect_uri") + "?code=" + code + "&state="
        + URLEncoder.encode(q.get("state"), StandardCharsets.UTF_8));
    send(e, 302, "text/plain", "");
  }

  private void token(HttpExchange e) throws IOException {
    Map<String, String> f = form(new String(e.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
    Map<String, String> auth = f.get("code") == null ? null : codes.remove(f.get("code"));
    String refusal = auth == null ? "unknown or used code"
        : !"authorization_code".equals(f.get("grant_type")) ? "grant_type"
        : !clientId.equals(f.get("client_id")) ? "client_id"
        : !auth.get("redirect_uri").equals(f.get("redirect_uri")) ? "redirect_uri"
        : auth.get("code_challenge") != null && !auth.get("code_challenge").equals(s256(f.get("code_verifier")))
            ? "code_verifier" : null;
    if (refusal != null) {
      refusals.add(refusal);
      send(e, 400, "application/json", "{\"error\":\"invalid_grant\",\"error_description\":\"" + refusal + "\"}");
      return;
    }
    Instant now = Instant.now();
    JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder().issuer(issuer).subject("sub-" + USER).audience(clientId)
        .issueTime(Date.from(now)).expirationTime(Date.from(now.plusSeconds(3600)))
        .claim("auth_time", now.getEpochSecond()).claim("preferred_username", USER).claim("name", "Alice Liddell")
        .claim("email", USER + "@example.com").claim("email_verified", true);
    if (auth.get("nonce") != null) {
      claims.claim("nonce", auth.get("nonce"));
    }
    SignedJWT idToken = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(),
        claims.build());
    try {
      idToken.sign(new RSASSASigner(key));
    } catch (JOSEException x) {
      throw new IOException(x);
    }
    tokensIssued.incrementAndGet();
    send(e, 200, "application/json", "{\"access_token\":\"at-" + random.nextLong() + "\",\"token_type\":\"Bearer\","
        + "\"expires_in\":3600,\"scope\":\"" + auth.get("scope") + "\",\"id_token\":\"" + idToken.serialize() + "\"}");
  }

  private static String s256(String verifier) {
    if (verifier == null) {
      return null;
    }
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(d);
    } catch (java.security.NoSuchAlgorithmException x) {
      throw new IllegalStateException(x);
    }
  }

  private static Map<String, String> form(String raw) {
    Map<String, String> m = new LinkedHashMap<>();
    if (raw != null && !raw.isEmpty()) {
      for (String pair : raw.split("&")) {
        int eq = pair.indexOf('=');
        String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
        m.put(k, eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    return m;
  }

  private static void send(HttpExchange e, int status, String type, String body) throws IOException {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    e.getResponseHeaders().set("Content-Type", type);
    e.sendResponseHeaders(status, b.length == 0 ? -1 : b.length);
    try (OutputStream out = e.getResponseBody()) {
      out.write(b);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
