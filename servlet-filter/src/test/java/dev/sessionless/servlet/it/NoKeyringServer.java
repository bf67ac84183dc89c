package dev.sessionless.servlet.it;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.servlet.SessionlessFilter;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Collections;
import java.util.Enumeration;
import java.util.Map;
import org.apache.catalina.Context;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;

/**
 * The application {@link WithoutKeyringTest} runs in a JVM of its own whose class path lacks
 * {@code sessionless-keyring} and BouncyCastle: an embedded Tomcat with two contexts, {@code /env}
 * (the filter configured by init parameters, {@code keys.env} holding a base64url secret) and
 * {@code /code} (the filter built with a {@link KeySet}). Before serving it reports, one line
 * each, whether those jars are absent and what the features that need them say; then the port;
 * it stops when its standard input closes.
 */
public final class NoKeyringServer {
  private NoKeyringServer() {}

  public static void main(String[] args) throws Exception {
    System.out.println("keyring-absent=" + absent("dev.sessionless.keyring.Keyring"));
    System.out.println("bouncycastle-absent=" + absent("org.bouncycastle.crypto.CryptoServicesRegistrar"));
    System.out.println("es256=" + failure(() -> TokenKey.generate("es", Algorithm.ES256)));
    System.out.println("keys.file=" + failure(() -> {
      new SessionlessFilter().init(config(Map.of("keys.file", "/run/secrets/keys.jwks",
          "issuer", "i", "audience", "a")));
      return null;
    }));
    System.out.println("keys.env-es256=" + failure(() -> {
      new SessionlessFilter().init(config(Map.of("keys.env", "ES256_KEYS", "algorithm", "ES256",
          "issuer", "i", "audience", "a")));
      return null;
    }));
    System.out.println("keys.password-env=" + failure(() -> {
      new SessionlessFilter().init(config(Map.of("keys.env", "SESSION_SECRET",
          "keys.password-env", "SESSION_PASSWORD", "issuer", "i", "audience", "a")));
      return null;
    }));

    Path base = Files.createTempDirectory("no-keyring");
    Tomcat tomcat = new Tomcat();
    tomcat.setBaseDir(base.toString());
    tomcat.setHostname("127.0.0.1");
    tomcat.setPort(0);
    tomcat.getConnector().setProperty("address", "127.0.0.1");

    FilterDef byParams = new FilterDef();
    byParams.setFilterClass(SessionlessFilter.class.getName());
    byParams.addInitParameter("keys.env", "SESSION_SECRET");
    byParams.addInitParameter("algorithm", "HS256");
    byParams.addInitParameter("issuer", "https://shop.example");
    byParams.addInitParameter("audience", "shop");
    counting(tomcat.addContext("/env", base.toString()), byParams);

    FilterDef inCode = new FilterDef();
    inCode.setFilter(SessionlessFilter.builder()
        .keys(KeySet.of(TokenKey.secret("code", Algorithm.HS256, Base64.getUrlDecoder().decode(args[0]))))
        .algorithm(Algorithm.HS256).issuer("https://shop.example").audience("shop").build());
    counting(tomcat.addContext("/code", base.toString()), inCode);

    tomcat.start();
    System.out.println("port=" + tomcat.getConnector().getLocalPort());
    System.out.flush();
    while (System.in.read() != -1) {
      // wait for the test to close our input
    }
    tomcat.stop();
    tomcat.destroy();
  }

  private static void counting(Context context, FilterDef filter) {
    filter.setFilterName("sessionless");
    filter.setAsyncSupported("true");
    context.addFilterDef(filter);
    FilterMap map = new FilterMap();
    map.setFilterName("sessionless");
    map.addURLPattern("/*");
    context.addFilterMap(map);
    Tomcat.addServlet(context, "count", new CountServlet());
    context.addServletMappingDecoded("/count", "count");
  }

  /** Counts visits in {@code HttpSession}. */
  static final class CountServlet extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      HttpSession session = req.getSession();
      Integer n = (Integer) session.getAttribute("n");
      n = n == null ? 1 : n + 1;
      session.setAttribute("n", n);
      resp.getWriter().print(n);
    }
  }

  private static boolean absent(String className) {
    try {
      Class.forName(className, false, NoKeyringServer.class.getClassLoader());
      return false;
    } catch (ClassNotFoundException e) {
      return true;
    }
  }

  private interface Action {
    Object run() throws Exception;
  }

  /** The message of what {@code action} threw, innermost cause last, on one line. */
  private static String failure(Action action) {
    try {
      action.run();
      return "no failure";
    } catch (Throwable t) {
      StringBuilder s = new StringBuilder(t.getClass().getSimpleName()).append(": ").append(t.getMessage());
      return s.toString().replace('\n', ' ');
    }
  }

  private static FilterConfig config(Map<String, String> params) {
    return new FilterConfig() {
      @Override
      public String getFilterName() {
        return "sessionless";
      }

      @Override
      public ServletContext getServletContext() {
        throw new UnsupportedOperationException("not needed by init");
      }

      @Override
      public String getInitParameter(String name) {
        return params.get(name);
      }

      @Override
      public Enumeration<String> getInitParameterNames() {
        return Collections.enumeration(params.keySet());
      }
    };
  }
}
