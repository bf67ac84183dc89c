package dev.sessionless.servlet.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.servlet.SessionlessFilter;
import dev.sessionless.session.internal.ExchangeSession;
import dev.sessionless.testing.Collected;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.apache.catalina.core.StandardContext;
import org.apache.catalina.startup.Constants;
import org.apache.catalina.startup.ContextConfig;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.scan.StandardJarScanFilter;
import org.apache.tomcat.util.scan.StandardJarScanner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Redeploy in a real embedded Tomcat: after a webapp that used the filter (HS256, dir/A256GCM and
 * ES256 sessions, written and read over real HTTP on every worker thread) is undeployed, while
 * the server and its worker threads keep running, the webapp's class loader becomes unreachable.
 *
 * <p>The webapp is a real one: a directory with {@code WEB-INF/web.xml} (three
 * {@link SessionlessFilter}s configured by init parameters over one {@code keys.file}, and
 * {@link RedeployApp} using {@code HttpSession}), {@code WEB-INF/classes} holding RedeployApp, and
 * {@code WEB-INF/lib} holding the sessionless jars (core, keyring, session, servlet, jarred from the
 * reactor's output) and their libraries (Jackson, Caffeine, BouncyCastle, from the test's path).
 * The context's parent loader hides all of those, so Tomcat's {@code WebappClassLoader} and
 * nothing else loads them; the webapp reports its loaders and the test checks them.
 *
 * <p>Tomcat's own leak clean-up is off, so the test proves that our code holds nothing, not that
 * Tomcat cleared it: {@code clearReferencesThreadLocals}, {@code clearReferencesRmiTargets} and
 * (10.1) {@code clearReferencesObjectStreamClassCaches} are set false; {@code
 * clearReferencesStopThreads} and {@code clearReferencesStopTimerThreads} stay at their default
 * false (a thread the webapp left running keeps its loader reachable); no
 * {@code ThreadLocalLeakPreventionListener} renews the worker threads. What Tomcat still does on
 * stop is flush JDK caches keyed by the loader (resource bundles, the bean introspector).
 *
 * <p>The negative control deploys the same webapp with a servlet that parks itself in a
 * {@code ThreadLocal} of the worker threads: its loader must stay reachable, or the check proves
 * nothing.
 */
class RedeployLeakTest {
  private static final int WORKERS = 4;
  private static final String[] FILTERS = {"hs", "HS256", "enc", "dir", "es", "ES256"};
  private static final String[] HIDDEN = {
    "dev.sessionless.", "com.fasterxml.jackson.", "tools.jackson.", "com.github.benmanes.caffeine.", "org.bouncycastle."
  };

  @TempDir static Path dir;
  private static Tomcat tomcat;
  private static Path keys;
  private static List<Path> libs;

  @BeforeAll
  static void startTomcatWithoutWebapps() throws Exception {
    keys = dir.resolve("keys.jwks");
    Files.writeString(keys, KeySet.of(TokenKey.generate("hs", Algorithm.HS256),
        TokenKey.generate("enc", Algorithm.DIR_A256GCM), TokenKey.generate("es", Algorithm.ES256))
        .toJwksWithSecrets());
    libs = libraries(Files.createDirectory(dir.resolve("lib")));
    tomcat = new Tomcat();
    tomcat.setBaseDir(Files.createDirectory(dir.resolve("tomcat")).toString());
    tomcat.setHostname("127.0.0.1");
    tomcat.setPort(0);
    tomcat.getConnector().setProperty("address", "127.0.0.1");
    tomcat.getConnector().setProperty("maxThreads", String.valueOf(WORKERS));
    tomcat.getConnector().setProperty("minSpareThreads", String.valueOf(WORKERS));
    tomcat.start();
  }

  @AfterAll
  static void stopTomcat() throws Exception {
    if (tomcat != null) {
      tomcat.stop();
      tomcat.destroy();
    }
  }

  @Test
  void undeployedWebappClassLoaderBecomesUnreachableWhileTheWorkerThreadsLiveOn() throws Exception {
    WeakReference<ClassLoader> loader = deployServeAndUndeploy("app", false);
    assertTrue(collected(loader), "the undeployed webapp's class loader is still reachable: something"
        + " of ours (a ThreadLocal, a thread, a static of a shared class) holds a webapp object");
  }

  @Test
  void aWebappThatParksAnObjectInAWorkerThreadLocalKeepsItsLoaderReachable() throws Exception {
    WeakReference<ClassLoader> loader = deployServeAndUndeploy("leaky", true);
    assertFalse(collected(loader), "negative control: the parked ThreadLocal value must pin the loader");
  }

  /** Deploys, serves sessions in all three algorithms on every worker, undeploys; keeps nothing. */
  private static WeakReference<ClassLoader> deployServeAndUndeploy(String name, boolean park) throws Exception {
    StandardContext context = new StandardContext();
    context.setName("/" + name);
    context.setPath("/" + name);
    context.setDocBase(webapp(name, park).toString());
    context.setParentClassLoader(new HidingLoader(RedeployLeakTest.class.getClassLoader()));
    context.setClearReferencesThreadLocals(false);
    context.setClearReferencesRmiTargets(false);
    try { // Tomcat 10.1 only: Tomcat 11 dropped this clean-up
      StandardContext.class.getMethod("setClearReferencesObjectStreamClassCaches", boolean.class)
          .invoke(context, false);
    } catch (NoSuchMethodException absent) {
      // nothing to turn off
    }
    assertFalse(context.getClearReferencesStopThreads());
    assertFalse(context.getClearReferencesStopTimerThreads());
    StandardJarScanFilter skipAll = new StandardJarScanFilter();
    skipAll.setTldSkip("*");
    skipAll.setPluggabilitySkip("*");
    StandardJarScanner scanner = new StandardJarScanner();
    scanner.setScanClassPath(false);
    scanner.setScanManifest(false);
    scanner.setJarScanFilter(skipAll);
    context.setJarScanner(scanner);
    ContextConfig config = new ContextConfig();
    config.setDefaultWebXml(Constants.NoDefaultWebXml);
    context.addLifecycleListener(config);
    tomcat.getHost().addChild(context);
    assertTrue(context.getState().isAvailable(), "the webapp did not start: " + context.getState());
    ClassLoader webappLoader = context.getLoader().getClassLoader();
    int port = tomcat.getConnector().getLocalPort();

    String loaders = new Client(port).get("/" + name + "/loaders").body;
    assertTrue(loaders.startsWith("webapp=org.apache.catalina.loader.")
        && loaders.contains("@" + System.identityHashCode(webappLoader) + "\n"), loaders);
    assertFalse(loaders.contains("=absent") || loaders.contains("=jdk.") || loaders.contains("=app"), loaders);
    assertEquals(6, loaders.lines().filter(l -> l.endsWith("=webapp")).count(), loaders);
    assertTrue(SessionlessFilter.class.getClassLoader() != webappLoader);

    Set<String> threads = Collections.synchronizedSet(new LinkedHashSet<>());
    ExecutorService clients = Executors.newFixedThreadPool(4 * WORKERS);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int c = 0; c < 4 * WORKERS; c++) {
        String filter = FILTERS[2 * (c % 3)];
        done.add(clients.submit(() -> {
          Client client = new Client(port);
          for (int i = 1; i <= 12; i++) {
            String wrote = client.get("/" + name + "/" + filter + "/write").body;
            assertTrue(wrote.startsWith("n=" + i + " "), filter + ": " + wrote);
            String read = client.get("/" + name + "/" + filter + "/read").body;
            assertTrue(read.startsWith("n=" + i + " "), filter + ": " + read);
            threads.add(wrote.substring(wrote.indexOf("thread=")));
            threads.add(read.substring(read.indexOf("thread=")));
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      clients.shutdownNow();
    }
    assertEquals(WORKERS, threads.size(), "every worker thread served sessions: " + threads);

    WeakReference<ClassLoader> ref = new WeakReference<>(webappLoader, QUEUE);
    tomcat.getHost().removeChild(context);
    assertEquals(404, new Client(port).get("/" + name + "/hs/read").status, "the webapp is gone");
    return ref;
  }

  private static final ReferenceQueue<ClassLoader> QUEUE = new ReferenceQueue<>();

  /** Collections until the reference clears, bounded by {@link Collected} (not by the machine's speed). */
  private static boolean collected(WeakReference<ClassLoader> ref) throws InterruptedException {
    return Collected.awaitCleared(ref);
  }

  private static Path webapp(String name, boolean park) throws IOException {
    Path root = Files.createDirectory(dir.resolve(name));
    Path classes = Files.createDirectories(root.resolve("WEB-INF/classes/dev/sessionless/servlet/it"));
    try (InputStream in = RedeployLeakTest.class.getResourceAsStream("RedeployApp.class")) {
      assertNotNull(in);
      Files.copy(in, classes.resolve("RedeployApp.class"));
    }
    Path lib = Files.createDirectories(root.resolve("WEB-INF/lib"));
    for (Path jar : libs) {
      Files.copy(jar, lib.resolve(jar.getFileName()));
    }
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        + "<web-app xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"6.0\" metadata-complete=\"true\">\n"
        + "  <absolute-ordering/>\n");
    for (int i = 0; i < FILTERS.length; i += 2) {
      String f = FILTERS[i];
      xml.append("  <filter><filter-name>").append(f).append("</filter-name>\n")
          .append("    <filter-class>dev.sessionless.servlet.SessionlessFilter</filter-class>\n")
          .append("    <async-supported>true</async-supported>\n")
          .append(param("keys.file", keys.toString())).append(param("algorithm", FILTERS[i + 1]))
          .append(param("issuer", "https://redeploy.example")).append(param("audience", name))
          .append(param("cookie.name", f.toUpperCase(java.util.Locale.ROOT)))
          .append(param("cookie.secure", "false")).append("  </filter>\n")
          .append("  <filter-mapping><filter-name>").append(f).append("</filter-name><url-pattern>/")
          .append(f).append("/*</url-pattern></filter-mapping>\n");
    }
    xml.append("  <servlet><servlet-name>app</servlet-name>\n")
        .append("    <servlet-class>dev.sessionless.servlet.it.RedeployApp</servlet-class>\n")
        .append(param("park", String.valueOf(park))).append("  </servlet>\n")
        .append("  <servlet-mapping><servlet-name>app</servlet-name><url-pattern>/*</url-pattern></servlet-mapping>\n")
        .append("</web-app>\n");
    Files.writeString(root.resolve("WEB-INF/web.xml"), xml);
    return root;
  }

  private static String param(String name, String value) {
    return "    <init-param><param-name>" + name + "</param-name><param-value>" + value
        + "</param-value></init-param>\n";
  }

  /**
   * The jars of WEB-INF/lib: core, keyring, session and servlet from the reactor (a classes directory is
   * jarred), and every Jackson, Caffeine and BouncyCastle jar on the test's path.
   */
  private static List<Path> libraries(Path out) throws Exception {
    Set<Path> sources = new LinkedHashSet<>();
    for (Class<?> c : List.of(TokenCodec.class, Keyring.class, ExchangeSession.class, SessionlessFilter.class)) {
      sources.add(Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()));
    }
    String path = System.getProperty("java.class.path", "") + java.io.File.pathSeparator
        + System.getProperty("jdk.module.path", "");
    for (String entry : path.split(java.io.File.pathSeparator)) {
      String e = entry.replace('\\', '/');
      if (e.endsWith(".jar") && (e.contains("/com/fasterxml/jackson/core/") || e.contains("/tools/jackson/")
          || e.contains("/com/github/ben-manes/caffeine/") || e.contains("/org/bouncycastle/"))) {
        sources.add(Path.of(entry));
      }
    }
    List<Path> jars = new ArrayList<>();
    for (Path source : sources) {
      if (Files.isDirectory(source)) {
        Path jar = out.resolve("sessionless-" + source.getParent().getParent().getFileName() + ".jar");
        jarUp(source, jar);
        jars.add(jar);
      } else {
        jars.add(source);
      }
    }
    assertTrue(jars.size() >= 7, "expected the sessionless jars and their libraries, found " + jars);
    return jars;
  }

  private static void jarUp(Path classes, Path jar) throws IOException {
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
        Stream<Path> files = Files.walk(classes)) {
      for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
        out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
        Files.copy(f, out);
        out.closeEntry();
      }
    }
  }

  /** The test's loader without our classes and libraries: the webapp must bring its own. */
  private static final class HidingLoader extends ClassLoader {
    HidingLoader(ClassLoader parent) {
      super("hiding-sessionless", parent);
    }

    private static boolean hidden(String name) {
      String dotted = name.replace('/', '.');
      for (String prefix : HIDDEN) {
        if (dotted.startsWith(prefix)) {
          return true;
        }
      }
      return false;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (hidden(name)) {
        throw new ClassNotFoundException(name + " is hidden from the webapp's parent loader");
      }
      return super.loadClass(name, resolve);
    }

    @Override
    public URL getResource(String name) {
      return hidden(name) ? null : super.getResource(name);
    }

    @Override
    public Enumeration<URL> getResources(String name) throws IOException {
      return hidden(name) ? Collections.emptyEnumeration() : super.getResources(name);
    }
  }

  /** HTTP/1.1 over a fresh loopback connection per request (Connection: close), with a cookie jar. */
  private static final class Client {
    private final int port;
    private final Map<String, String> cookies = new LinkedHashMap<>();

    Client(int port) {
      this.port = port;
    }

    Reply get(String path) {
      try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
        socket.setSoTimeout(20_000);
        StringBuilder req = new StringBuilder("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + "Connection: close\r\n");
        if (!cookies.isEmpty()) {
          StringBuilder c = new StringBuilder();
          cookies.forEach((k, v) -> c.append(c.length() == 0 ? "" : "; ").append(k).append('=').append(v));
          req.append("Cookie: ").append(c).append("\r\n");
        }
        OutputStream out = socket.getOutputStream();
        out.write(req.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        String all = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        int end = all.indexOf("\r\n\r\n");
        String[] head = all.substring(0, end).split("\r\n");
        boolean chunked = false;
        for (int i = 1; i < head.length; i++) {
          String h = head[i];
          String lower = h.toLowerCase(java.util.Locale.ROOT);
          if (lower.startsWith("set-cookie:")) {
            String pair = h.substring(11).trim().split(";", 2)[0];
            String cookie = pair.substring(0, pair.indexOf('='));
            if (lower.contains("max-age=0")) {
              cookies.remove(cookie);
            } else {
              cookies.put(cookie, pair.substring(pair.indexOf('=') + 1));
            }
          } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
            chunked = true;
          }
        }
        String body = all.substring(end + 4);
        if (chunked) {
          StringBuilder b = new StringBuilder();
          int at = 0;
          while (true) {
            int eol = body.indexOf("\r\n", at);
            int size = Integer.parseInt(body.substring(at, eol).split(";")[0].trim(), 16);
            if (size == 0) {
              break;
            }
            b.append(body, eol + 2, eol + 2 + size);
            at = eol + 2 + size + 2;
          }
          body = b.toString();
        }
        return new Reply(Integer.parseInt(head[0].split(" ")[1]), body);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  private record Reply(int status, String body) {}
}
