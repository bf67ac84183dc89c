package dev.sessionless.propagation.reactive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A WebFlux service has no Servlet API: the reactive filters, the JWKS endpoint and the WebClient
 * filter load and work in a class loader that hides {@code jakarta.servlet.*} (this module's
 * test class path has the API, for the servlet side's tests, so the test hides it instead).
 */
@Timeout(120)
class ServletFreeReactiveTest {
  /** Loads everything itself from the test class path, with the JDK only above, except the Servlet API. */
  static final class WithoutServletApi extends URLClassLoader {
    WithoutServletApi(URL[] urls) {
      super("without-servlet-api", urls, ClassLoader.getPlatformClassLoader());
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (name.startsWith("jakarta.servlet.")) {
        throw new ClassNotFoundException(name + " (hidden: a WebFlux service has no Servlet API)");
      }
      return super.loadClass(name, resolve);
    }
  }

  static URL[] testClassPath() throws MalformedURLException {
    String path = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<URL> urls = new ArrayList<>();
    for (String entry : path.split(File.pathSeparator)) {
      if (!entry.isEmpty()) {
        urls.add(new File(entry).toURI().toURL());
      }
    }
    return urls.toArray(URL[]::new);
  }

  @Test
  void reactivePiecesLoadAndServeWithoutTheServletApi() throws Exception {
    try (WithoutServletApi loader = new WithoutServletApi(testClassPath())) {
      assertThrows(ClassNotFoundException.class, () -> Class.forName("jakarta.servlet.Filter", false, loader),
          "the loader hides the Servlet API");
      Class<?> journey = Class.forName(ServletFreeJourney.class.getName(), true, loader);
      assertEquals(loader, journey.getClassLoader(), "the journey runs on the hiding loader's classes");
      @SuppressWarnings("unchecked")
      Callable<String> run = (Callable<String>) journey.getConstructor().newInstance();
      assertEquals("alice 200 true", run.call(),
          "the edge minted from its WebSession, the service verified, the JWKS was served");
    }
  }
}
