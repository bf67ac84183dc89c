package dev.sessionless.load.internal;

import java.io.IOException;
import java.nio.channels.SelectableChannel;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import org.eclipse.jetty.io.SelectorManager;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * A connector whose node can be killed as a crashed process would be: after the server stops,
 * {@link #closeAccepted()} closes every connection it ever accepted that is still open, so a
 * client's request in flight fails at once.
 *
 * <p>Why: stopping Jetty in-process is not quite a crash. A connection accepted while the
 * selectors stop is handed to a selector that never registers it; nobody reads or closes it, and
 * the client's request waits for its own timeout (10 s, seen about once in twenty stops). A
 * dead process's sockets are closed by the kernel instead, and that is what the faults mean.
 */
final class KillableConnector extends ServerConnector {
  /** Prune closed channels from the set once it holds this many. */
  private static final int PRUNE_AT = 256;

  KillableConnector(Server server, ConnectionFactory factory) {
    super(server, factory);
  }

  @Override
  protected SelectorManager newSelectorManager(Executor executor, Scheduler scheduler, int selectors) {
    // called from the super constructor: the set lives in the manager, not in a field of this
    return new Tracking(executor, scheduler, selectors);
  }

  /** Closes every accepted connection that is still open; for after the server has stopped. */
  void closeAccepted() {
    ((Tracking) getSelectorManager()).closeAll();
  }

  private final class Tracking extends ServerConnectorManager {
    private final Set<SelectableChannel> accepted = ConcurrentHashMap.newKeySet();

    Tracking(Executor executor, Scheduler scheduler, int selectors) {
      super(executor, scheduler, selectors);
    }

    @Override
    public void accept(SelectableChannel channel, Object attachment) {
      if (accepted.size() >= PRUNE_AT) {
        accepted.removeIf(c -> !c.isOpen());
      }
      accepted.add(channel);
      super.accept(channel, attachment);
    }

    void closeAll() {
      for (SelectableChannel c : accepted) {
        try {
          c.close();
        } catch (IOException e) {
          // closing is best effort: the connection is gone either way
        }
      }
      accepted.clear();
    }
  }
}
