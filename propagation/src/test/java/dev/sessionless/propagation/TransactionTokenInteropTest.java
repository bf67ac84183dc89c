package dev.sessionless.propagation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.testing.FakeClock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jose4j.jwk.PublicJsonWebKey;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.jose4j.jwt.consumer.JwtConsumer;
import org.jose4j.jwt.consumer.JwtConsumerBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Transaction Tokens both ways between this project and two JOSE libraries: a token Nimbus
 * builds exactly as the draft's example shows verifies here, and a token this project mints is
 * read by Nimbus and by jose4j with the right claims. The example's claims are copied from
 * {@code propagation/spec/draft-ietf-oauth-transaction-tokens.md} (figure "Example: Txn-Token
 * Body").
 */
@Timeout(30)
class TransactionTokenInteropTest {
  static final String DOMAIN = "trust-domain.example";
  static final String TTS = "https://tts.trust-domain.example";
  static final TokenKey KEY = TokenKey.generate("identifier-to-key", Algorithm.ES256);

  @Test
  void tokenBuiltByNimbusAsTheDraftsExampleShowsVerifies() throws Exception {
    // The draft's example body, claim for claim; plus the two registered claims this project's
    // codec requires of every token and the draft leaves out: iss (the draft: OPTIONAL, "may be
    // used to identify the signer") and jti (RFC 7519's token id); ES256 for the example's RS256.
    JWTClaimsSet claims = new JWTClaimsSet.Builder()
        .issuer(TTS)
        .jwtID("a7f4e0d2-5c1b-4f3e-9a8d-2b6c1e0f9d3a")
        .issueTime(java.util.Date.from(Instant.ofEpochSecond(1686536226)))
        .audience(DOMAIN)
        .expirationTime(java.util.Date.from(Instant.ofEpochSecond(1686536586)))
        .claim("txn", "97053963-771d-49cc-a4e3-20aad399c312")
        .subject("d084sdrt234fsaw34tr23t")
        .claim("req_wl", "apigateway.trust-domain.example")
        .claim("rctx", Map.of("req_ip", "69.151.72.123", "authn", "face"))
        .claim("scope", "trade.stocks")
        .claim("tctx", Map.of("action", "BUY", "ticker", "MSFT", "quantity", "100",
            "customer_type", Map.of("geo", "US", "level", "VIP")))
        .build();
    SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256)
        .type(new JOSEObjectType("txntoken+jwt")).keyID("identifier-to-key").build(), claims);
    jwt.sign(new ECDSASigner(ECKey.parse(KEY.toJwkWithSecrets())));

    FakeClock clock = new FakeClock(Instant.ofEpochSecond(1686536226 + 10));
    InternalTokenVerifier verifier = InternalTokenVerifier.builder().profile(TokenProfile.TXN_TOKEN).audience(DOMAIN)
        .issuer(TTS, KeySet.of(KEY.publicOnly())).clock(clock).build();
    InternalToken t = verifier.verify(jwt.serialize());
    assertEquals("d084sdrt234fsaw34tr23t", t.subject().orElseThrow());
    assertEquals("97053963-771d-49cc-a4e3-20aad399c312", t.transactionId().orElseThrow());
    assertEquals(Set.of("trade.stocks"), t.scope());
    assertEquals("69.151.72.123", t.requestContext().get("req_ip"));
    assertEquals("BUY", t.get("action", String.class).orElseThrow());
    assertEquals(Map.of("geo", "US", "level", "VIP"), t.get("customer_type", Map.class).orElseThrow());
    assertEquals(List.of("apigateway.trust-domain.example"), t.actors(), "without act, the requesting workload");
    assertEquals("", t.sessionId(), "a token service of the draft writes no sid");
    assertEquals(Instant.ofEpochSecond(1686536586), t.expiresAt());
  }

  InternalTokenMinter minter(FakeClock clock) {
    return InternalTokenMinter.builder().keys(KeySet.of(KEY)).issuer("https://edge.example").clock(clock)
        .profile(TokenProfile.TXN_TOKEN).trustDomain(DOMAIN).scope("trade.stocks").build();
  }

  String minted(Instant now) {
    EdgeSession session = EdgeSession.builder().sessionId("s-1").subject("alice").expiresAt(now.plusSeconds(600))
        .put("ticker", "MSFT").put("quantity", 100).build();
    TraceContext trace = TraceContext.parse("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01").orElseThrow();
    return minter(new FakeClock(now)).mint(session, "orders", Set.of("ticker", "quantity"), trace);
  }

  @Test
  void tokenThisProjectMintsIsReadByNimbusWithTheDraftsClaims() throws Exception {
    Instant now = Instant.now();
    SignedJWT jwt = SignedJWT.parse(minted(now));
    assertEquals(true, jwt.verify(new ECDSAVerifier(ECKey.parse(KEY.toPublicJwk()))));
    assertEquals(new JOSEObjectType("txntoken+jwt"), jwt.getHeader().getType());
    assertEquals("identifier-to-key", jwt.getHeader().getKeyID());
    JWTClaimsSet c = jwt.getJWTClaimsSet();
    assertEquals(List.of(DOMAIN), c.getAudience());
    assertEquals("alice", c.getSubject());
    assertEquals("trade.stocks", c.getStringClaim("scope"));
    assertEquals("https://edge.example", c.getStringClaim("req_wl"));
    assertEquals(36, c.getStringClaim("txn").length());
    assertEquals("4bf92f3577b34da6a3ce929d0e0e4736", c.getJSONObjectClaim("rctx").get("trace_id"));
    assertEquals("MSFT", c.getJSONObjectClaim("tctx").get("ticker"));
    assertEquals(100L, ((Number) c.getJSONObjectClaim("tctx").get("quantity")).longValue());
    assertEquals(60, (c.getExpirationTime().getTime() - c.getIssueTime().getTime()) / 1000);
  }

  @Test
  void tokenThisProjectMintsIsReadByJose4jWithTheDraftsClaims() throws Exception {
    Instant now = Instant.now();
    String token = minted(now);
    JwtConsumer consumer = new JwtConsumerBuilder()
        .setExpectedType(true, "txntoken+jwt")
        .setExpectedAudience(DOMAIN)
        .setExpectedIssuer("https://edge.example")
        .setRequireExpirationTime().setRequireIssuedAt().setRequireSubject()
        .setEvaluationTime(NumericDate.fromSeconds(now.getEpochSecond()))
        .setVerificationKey(PublicJsonWebKey.Factory.newPublicJwk(KEY.toPublicJwk()).getPublicKey())
        .build();
    JwtClaims c = consumer.processToClaims(token);
    assertEquals("alice", c.getSubject());
    assertEquals("trade.stocks", c.getStringClaimValue("scope"));
    assertEquals("https://edge.example", c.getStringClaimValue("req_wl"));
    assertEquals(36, c.getStringClaimValue("txn").length());
    assertEquals("4bf92f3577b34da6a3ce929d0e0e4736", ((Map<?, ?>) c.getClaimValue("rctx")).get("trace_id"));
    assertEquals("MSFT", ((Map<?, ?>) c.getClaimValue("tctx")).get("ticker"));
  }
}
