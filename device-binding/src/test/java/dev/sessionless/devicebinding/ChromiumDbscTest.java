package dev.sessionless.devicebinding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.devicebinding.servlet.DeviceBindingFilter;
import dev.sessionless.devicebinding.servlet.DeviceBindingFilterBuilder;
import dev.sessionless.servlet.SessionlessFilter;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * DBSC end to end with the real browser: Debian's Chromium, headless, with its software-key test
 * provider, against {@link DeviceBindingFilter} on embedded Jetty over loopback HTTPS (a
 * self-signed certificate Chromium is told to trust, see {@link #https}). Everything is asserted from
 * the server side: the registration and refresh endpoints' verified answers are counted by a
 * filter in front of the DBSC filter, and the device key's thumbprint is read from the long-lived
 * cookie each of them writes.
 *
 * <p>Runs only with {@code -Pbrowser} (tag {@code browser}); with the profile on and no Chromium
 * it fails, saying how to install one. See the device-binding README's "Real browser" section for
 * what Chromium 156 does today.
 */
@Tag("browser")
class ChromiumDbscTest {
  private static final String ISSUER = "https://shop.example";
  private static final String REGISTER = "/.well-known/dbsc/register";
  private static final String REFRESH = "/.well-known/dbsc/refresh";
  private static final Duration REGISTRATION_WAIT = Duration.ofSeconds(20);

  private final KeySet keys = KeySet.of(TokenKey.generate("app-1", Algorithm.HS256));
  private Server server;
  private String base;
  /** {@code --ignore-certificate-errors-spki-list} for this run's self-signed server key. */
  private String trustFlag;
  private BindingTokens tokens;
  /** Registration and refresh answers that were 200 (the proof verified), with their long-lived cookie's key. */
  private final List<String> registered = new CopyOnWriteArrayList<>();
  private final List<String> refreshed = new CopyOnWriteArrayList<>();
  /** Every answer of the two endpoints, "path status", in order (for failure messages). */
  private final List<String> endpointAnswers = new CopyOnWriteArrayList<>();
  private final AtomicInteger reached = new AtomicInteger();

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.stop();
    }
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void chromiumRegistersThenRefreshesOnItsOwnAndTheAppSeesABoundSessionThroughout() throws Exception {
    Path exe = Chromium.require();
    start();
    List<String> flags = new ArrayList<>(Chromium.DBSC_FLAGS);
    flags.add(trustFlag);
    try (Chromium chromium = Chromium.launch(exe, flags)) {
      Chromium.Page page = chromium.open(base + "/");
      assertEquals("200", page.evaluate("fetch('/login?user=alice', {method: 'POST'}).then(r => '' + r.status)"));

      // 1. The login response offered registration: Chromium makes a key and posts its proof by itself.
      await(() -> !registered.isEmpty(), REGISTRATION_WAIT, () -> "Chromium did not complete a DBSC"
          + " registration within " + REGISTRATION_WAIT.toSeconds() + " s of the login response that offered"
          + " it.\nEndpoint answers: " + endpointAnswers + "\nDevTools DBSC events: " + chromium.dbscEvents()
          + "\nFlags: " + Chromium.DBSC_FLAGS + "\nChromium's last output:\n" + chromium.stderrTail());
      String thumbprint = registered.get(0);
      assertEquals("bound=true", page.evaluate("fetch('/app').then(r => r.text())"));

      // 2. The bound cookie lapses in the browser (removed from its jar, as its expiry would):
      //    Chromium defers the next request, refreshes with a signed proof, then sends it.
      chromium.send("Network.deleteCookies", Chromium.params().put("name", "sl_bound").put("url", base + "/"),
          page.session);
      String after = page.evaluate("fetch('/app').then(r => r.text())");
      assertEquals("bound=true", after, () -> "after the bound cookie lapsed; endpoint answers: "
          + endpointAnswers + "\nDevTools DBSC events: " + chromium.dbscEvents());
      // Chromium may also refresh ahead of expiry (its proactive refresh): at least this one happened,
      // and every refresh was proven with the key registered at login.
      assertFalse(refreshed.isEmpty(), () -> "no verified refresh; endpoint answers: " + endpointAnswers);
      for (String t : refreshed) {
        assertEquals(thumbprint, t, "a refresh was proven with another key than the one registered at login");
      }
      assertEquals(1, registered.size(), "one registration, however many requests");
      assertTrue(reached.get() >= 4, "the page, login and both app requests reached the application");
    }
  }

  /** One node over HTTPS: SessionlessFilter, a counting filter, DeviceBindingFilter, the application. */
  private void start() throws Exception {
    SessionlessFilter sessions = SessionlessFilter.builder().keys(() -> keys).algorithm(Algorithm.HS256)
        .issuer(ISSUER).audience("shop").cookieName("SESSIONLESS").build();
    DeviceBindingFilterBuilder b = DeviceBindingFilter.builder().keys(() -> keys).issuer(ISSUER)
        .clock(Clock.systemUTC());
    tokens = new BindingTokens(b);
    ServletContextHandler context = new ServletContextHandler();
    context.setContextPath("/");
    context.addFilter(new FilterHolder(sessions), "/*", EnumSet.allOf(DispatcherType.class));
    context.addFilter(new FilterHolder(counting()), "/*", EnumSet.of(DispatcherType.REQUEST));
    context.addFilter(new FilterHolder(b.build()), "/*", EnumSet.of(DispatcherType.REQUEST));
    // POST /login logs in and offers registration; any GET answers whether the session is bound.
    context.addServlet(new ServletHolder(new HttpServlet() {
      @Override
      protected void doPost(HttpServletRequest req, HttpServletResponse res) {
        reached.incrementAndGet();
        SessionlessFilter.loggedIn(req, req.getParameter("user"));
        DeviceBindingFilter.offerRegistration(req, res);
      }
    }), "/login");
    context.addServlet(new ServletHolder(new HttpServlet() {
      @Override
      protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
        reached.incrementAndGet();
        res.setContentType("text/plain");
        res.getWriter().write("bound=" + DeviceBindingFilter.isBound(req));
      }
    }), "/*");
    server = https(context);
    base = "https://localhost:" + ((ServerConnector) server.getConnectors()[0]).getLocalPort();
  }

  /**
   * Jetty on loopback with a fresh self-signed P-256 certificate for {@code localhost} (made by
   * the JDK's keytool). Chromium runs DBSC only over HTTPS whose certificate verifies: plain
   * {@code http://localhost} and {@code --ignore-certificate-errors} both leave it silent. It is
   * told to trust this one key with {@code --ignore-certificate-errors-spki-list}, which clears the
   * error instead of only letting the page load.
   */
  private Server https(ServletContextHandler context) throws Exception {
    Path dir = Files.createTempDirectory("sessionless-tls-");
    Path store = dir.resolve("server.p12");
    byte[] secret = new byte[18];
    new SecureRandom().nextBytes(secret);
    String password = HexFormat.of().formatHex(secret);
    Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
        "-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-sigalg", "SHA256withECDSA",
        "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity", "2",
        "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass", password, "-keypass", password)
        .redirectErrorStream(true).start();
    String said = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, keytool.waitFor(), () -> "keytool: " + said);
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (var in = Files.newInputStream(store)) {
      ks.load(in, password.toCharArray());
    }
    Certificate cert = ks.getCertificate("server");
    trustFlag = "--ignore-certificate-errors-spki-list=" + Base64.getEncoder().encodeToString(
        MessageDigest.getInstance("SHA-256").digest(cert.getPublicKey().getEncoded()));
    SslContextFactory.Server tls = new SslContextFactory.Server();
    tls.setKeyStore(ks);
    tls.setKeyStorePassword(password);
    HttpConfiguration config = new HttpConfiguration();
    SecureRequestCustomizer secure = new SecureRequestCustomizer();
    secure.setSniHostCheck(false);
    config.addCustomizer(secure);
    Server jetty = new Server();
    ServerConnector connector = new ServerConnector(jetty, new SslConnectionFactory(tls, "http/1.1"),
        new HttpConnectionFactory(config));
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    jetty.addConnector(connector);
    jetty.setHandler(context);
    jetty.start();
    Files.delete(store);
    Files.delete(dir);
    return jetty;
  }

  /** Records each answer of the two DBSC endpoints and, for a 200, the key thumbprint its long-lived cookie binds. */
  private Filter counting() {
    return (request, response, chain) -> {
      chain.doFilter(request, response);
      String path = ((HttpServletRequest) request).getRequestURI();
      HttpServletResponse res = (HttpServletResponse) response;
      if (!path.equals(REGISTER) && !path.equals(REFRESH)) {
        return;
      }
      endpointAnswers.add(path + " " + res.getStatus());
      if (res.getStatus() == 200) {
        (path.equals(REGISTER) ? registered : refreshed).add(boundThumbprint(res));
      }
    };
  }

  private String boundThumbprint(HttpServletResponse res) {
    for (String line : res.getHeaders("Set-Cookie")) {
      if (line.startsWith(tokens.longLivedName + "=")) {
        String value = line.substring(tokens.longLivedName.length() + 1, line.indexOf(';'));
        return SessionBinding.read(tokens.longLived.decode(value)).orElseThrow().key().thumbprint();
      }
    }
    return fail("a verified DBSC answer without the long-lived cookie");
  }

  /** Waits for an outside process (the browser) to act, up to {@code limit}; fails with {@code why} otherwise. */
  private static void await(BooleanSupplier done, Duration limit, Supplier<String> why) {
    long deadline = System.nanoTime() + limit.toNanos();
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        fail(why.get());
      }
      Chromium.pause();
    }
  }
}
