package dev.sessionless.keyring.live;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A throw-away TLS identity for 127.0.0.1: a self-signed P-256 certificate made in memory, the
 * server's context that presents it and a client context that trusts exactly it.
 */
final class TestTls {
  final SSLContext server;
  final SSLContext client;

  private TestTls(SSLContext server, SSLContext client) {
    this.server = server;
    this.client = client;
  }

  /** One identity per JVM is plenty. */
  static final TestTls LOOPBACK = make();

  private static TestTls make() {
    try {
      KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
      g.initialize(256);
      KeyPair pair = g.generateKeyPair();
      X500Name name = new X500Name("CN=127.0.0.1");
      Instant now = Instant.now();
      JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(name, BigInteger.valueOf(now.toEpochMilli()),
          Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(1))), name, pair.getPublic());
      builder.addExtension(Extension.subjectAlternativeName, false,
          new GeneralNames(new GeneralName(GeneralName.iPAddress, "127.0.0.1")));
      X509Certificate cert = new JcaX509CertificateConverter().getCertificate(
          builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(pair.getPrivate())));
      char[] pass = "test-only".toCharArray();
      KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(null, null);
      keys.setKeyEntry("server", pair.getPrivate(), pass, new Certificate[] {cert});
      KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(keys, pass);
      SSLContext server = SSLContext.getInstance("TLS");
      server.init(kmf.getKeyManagers(), null, null);
      KeyStore trust = KeyStore.getInstance("PKCS12");
      trust.load(null, null);
      trust.setCertificateEntry("server", cert);
      TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(trust);
      SSLContext client = SSLContext.getInstance("TLS");
      client.init(null, tmf.getTrustManagers(), null);
      return new TestTls(server, client);
    } catch (GeneralSecurityException | OperatorCreationException | java.io.IOException e) {
      throw new IllegalStateException("cannot make the test TLS identity", e);
    }
  }
}
