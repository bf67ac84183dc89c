package dev.sessionless.load.internal;

import dev.sessionless.testing.RedisServer;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;

/** What a run takes from the machine it runs on: the {@code redis-server}, the commit, the heap. */
public final class Host {
  private Host() {}

  /**
   * The {@code redis-server} for {@code spring-session-redis} and {@code revocation-lag}: {@code explicit} when given
   * (empty if it is not an executable file), otherwise the test-support launcher's choice ({@code
   * redis-server} on the {@code PATH}, else the binary this tool's jar carries; see {@link
   * RedisServer}).
   */
  public static Optional<Path> redisExecutable(Path explicit) {
    if (explicit != null) {
      return RedisServer.isExecutableFile(explicit) ? Optional.of(explicit) : Optional.empty();
    }
    try {
      return Optional.of(RedisServer.chosenExecutable());
    } catch (IllegalStateException e) {
      return Optional.empty();
    }
  }

  /** Why {@link #redisExecutable} found nothing, and what to do. */
  public static String redisMissing(Path explicit) {
    return "redis-server not found" + (explicit == null ? " on the PATH nor in this tool's jar" : " at " + explicit)
        + "; " + RedisServer.INSTALL_HINT + ", or pass --redis-server=/path/to/redis-server";
  }

  /** The heap in use right after a requested collection, in bytes (the soak profile's drift). */
  public static long heapAfterGc() {
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /** The checkout's short commit, for the results' names; {@code unknown} outside a git checkout. */
  public static String commit() {
    try {
      Process p = new ProcessBuilder("git", "rev-parse", "--short", "HEAD").redirectErrorStream(true).start();
      String s = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      return p.waitFor() == 0 && s.matches("[0-9a-f]{4,40}") ? s : "unknown";
    } catch (IOException e) {
      return "unknown";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown";
    }
  }
}
