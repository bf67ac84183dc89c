package dev.sessionless.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import dev.sessionless.testing.Collected;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.ObjectMapper;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.sessionless.core.leak.LeakDriver;
import dev.sessionless.core.leak.LeakingDriver;
import java.lang.ref.WeakReference;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import org.bouncycastle.math.ec.rfc8032.Ed25519;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A servlet container's worker threads outlive the webapps they serve. After an undeploy, the
 * webapp's class loader must become unreachable even though its code ran on those threads:
 * nothing of the library may stay reachable from a thread. Here the library (core and its
 * dependencies, as in a WAR's {@code WEB-INF/lib}) is loaded by a throwaway class loader, used on
 * a long-lived thread of the parent loader, and dropped; the loader must then be collected while
 * that thread is still alive.
 */
class ClassLoaderLeakTest {
  /** A long-lived worker of the parent loader, like a container's request thread. */
  final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "container-worker");
    t.setDaemon(true);
    return t;
  });
  final AtomicReference<Thread> workerThread = new AtomicReference<>();

  @AfterEach
  void stopWorker() {
    worker.shutdownNow();
  }

  @Test
  void undeployedLibraryLeavesNothingReachableFromAContainerThread() throws Exception {
    WeakReference<ClassLoader> loader = runInThrowawayLoader(LeakDriver.class);
    assertTrue(workerThread.get().isAlive(), "the worker outlives the webapp");
    assertNull(collected(loader), "the throwaway class loader is still reachable: something of the"
        + " library stays reachable from the worker thread (a ThreadLocal value?)");
  }

  @Test
  void theTestSeesALeakWhenThereIsOne() throws Exception {
    WeakReference<ClassLoader> loader = runInThrowawayLoader(LeakingDriver.class);
    assertTrue(workerThread.get().isAlive());
    assertNotNull(collected(loader), "a ThreadLocal value of the webapp's class pins its loader");
  }

  private WeakReference<ClassLoader> runInThrowawayLoader(Class<?> driver) throws Exception {
    URL[] urls = {
      location(TokenCodec.class), location(driver), location(ObjectMapper.class),
      location(JsonFactory.class), location(JsonAutoDetect.class), location(Caffeine.class),
      location(Ed25519.class)
    };
    URLClassLoader webapp = new URLClassLoader("webapp", urls, ClassLoader.getPlatformClassLoader());
    Class<?> c = webapp.loadClass(driver.getName());
    assertEquals(webapp, c.getClassLoader(), "the driver and the library come from the throwaway loader");
    assertEquals(webapp, webapp.loadClass(TokenCodec.class.getName()).getClassLoader());
    @SuppressWarnings("unchecked")
    Callable<String> task = (Callable<String>) c.getDeclaredConstructor().newInstance();
    String result = worker.submit(() -> {
      workerThread.set(Thread.currentThread());
      return task.call();
    }).get();
    assertEquals("111".repeat(Algorithm.values().length), result);
    WeakReference<ClassLoader> ref = new WeakReference<>(webapp);
    webapp.close();
    return ref;
  }

  private static URL location(Class<?> c) {
    return c.getProtectionDomain().getCodeSource().getLocation();
  }

  /** Runs the collector until the reference clears (bounded, see {@link Collected}); the referent if it never does. */
  private static ClassLoader collected(WeakReference<ClassLoader> ref) throws InterruptedException {
    Collected.awaitCleared(ref);
    return ref.get();
  }
}
