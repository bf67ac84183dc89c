package dev.sessionless.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import dev.sessionless.testing.Collected;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.ObjectMapper;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.sessionless.core.leak.BurstDriver;
import java.lang.ref.WeakReference;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordingFile;
import org.bouncycastle.math.ec.rfc8032.Ed25519;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A webapp that committed a JFR event (a rejection burst, while a recording ran) is still
 * collected after undeploy: the JDK's recorder does not pin the event class and its loader.
 */
class JfrEventLeakTest {
  @Test
  void aWebappThatRecordedABurstEventIsCollectedAfterUndeploy(@TempDir Path dir) throws Exception {
    WeakReference<ClassLoader> ref;
    try (Recording r = new Recording()) {
      r.enable("dev.sessionless.RejectionBurst");
      r.start();
      ref = runInThrowawayLoader();
      r.stop();
      Path file = dir.resolve("burst.jfr");
      r.dump(file);
      List<String> seen = RecordingFile.readAllEvents(file).stream().map(e -> e.getEventType().getName())
          .filter(n -> n.equals("dev.sessionless.RejectionBurst")).collect(Collectors.toList());
      assertEquals(List.of("dev.sessionless.RejectionBurst"), seen, "the webapp's event was recorded");
    }
    Collected.awaitCleared(ref); // collections until cleared, bounded: not a bet on the machine's speed
    assertNull(ref.get(), "the throwaway class loader is still reachable after its JFR event was recorded");
  }

  private static WeakReference<ClassLoader> runInThrowawayLoader() throws Exception {
    URL[] urls = {
      location(TokenCodec.class), location(BurstDriver.class), location(ObjectMapper.class),
      location(JsonFactory.class), location(JsonAutoDetect.class), location(Caffeine.class),
      location(Ed25519.class)
    };
    URLClassLoader webapp = new URLClassLoader("webapp", urls, ClassLoader.getPlatformClassLoader());
    @SuppressWarnings("unchecked")
    Callable<String> task = (Callable<String>) webapp.loadClass(BurstDriver.class.getName())
        .getDeclaredConstructor().newInstance();
    assertEquals("151", task.call());
    WeakReference<ClassLoader> ref = new WeakReference<>(webapp);
    webapp.close();
    return ref;
  }

  private static URL location(Class<?> c) {
    return c.getProtectionDomain().getCodeSource().getLocation();
  }
}
