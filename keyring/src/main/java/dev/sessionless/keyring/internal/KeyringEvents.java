package dev.sessionless.keyring.internal;

import dev.sessionless.core.KeySet;
import dev.sessionless.core.SessionlessListener;
import java.time.Instant;
import java.util.Locale;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * What a keyring reports about its refresh: to the listener (every check, every key-set change)
 * and as JFR events (disabled by default): {@code dev.sessionless.KeyRefresh} for a check of a
 * local source, {@code dev.sessionless.JwksFetch} for a check of an HTTP JWKS source. Refresh
 * thread only (and {@code build()}).
 */
public final class KeyringEvents {
  // JFR reads each event's annotations and fields from the event class itself, so the two events repeat them.
  /** A check of a file, environment or in-code source. */
  @Name("dev.sessionless.KeyRefresh")
  @Label("Key Refresh")
  @Category({"Sessionless", "Keys"})
  @Description("A keyring checked a local key source (file, environment, keys given in code)")
  @Enabled(false)
  @StackTrace(false)
  public static final class KeyRefreshEvent extends Event {
    @Label("Source")
    public String source;
    @Label("Outcome")
    @Description("ok, or the failure's reason in lower case")
    public String outcome;
    @Label("Keys")
    public int keys;
  }

  /** A fetch (or conditional re-fetch) of an HTTP JWKS source. */
  @Name("dev.sessionless.JwksFetch")
  @Label("JWKS Fetch")
  @Category({"Sessionless", "Keys"})
  @Description("A keyring fetched an HTTP(S) JWKS (a 304 Not Modified counts)")
  @Enabled(false)
  @StackTrace(false)
  public static final class JwksFetchEvent extends Event {
    @Label("Source")
    @Description("The URL without its query")
    public String source;
    @Label("Outcome")
    @Description("ok, or the failure's reason in lower case")
    public String outcome;
    @Label("Keys")
    public int keys;
  }

  private final SessionlessListener listener;

  /** Reports to {@code listener} (already guarded) and to JFR. */
  public KeyringEvents(SessionlessListener listener) {
    this.listener = listener;
  }

  /** Starts timing a check of {@code s}: the event to hand to {@link #checked}, begun. */
  public Event begin(Source s) {
    Event e = s.checksOnUnknownKey() ? new JwksFetchEvent() : new KeyRefreshEvent();
    e.begin();
    return e;
  }

  /** A check of {@code s} ended: reports its outcome. */
  public void checked(Source s, Event e) {
    Source.State st = s.state();
    String outcome = st.failuresInARow == 0 || st.lastFailureReason == null
        ? "ok" : st.lastFailureReason.name().toLowerCase(Locale.ROOT);
    listener.keySourceChecked(s.describe(), outcome, st.lastSuccess == null ? Instant.MIN : st.lastSuccess);
    e.end();
    if (e.shouldCommit()) {
      if (e instanceof JwksFetchEvent) {
        JwksFetchEvent f = (JwksFetchEvent) e;
        f.source = s.describe();
        f.outcome = outcome;
        f.keys = st.keys.keys().size();
      } else {
        KeyRefreshEvent f = (KeyRefreshEvent) e;
        f.source = s.describe();
        f.outcome = outcome;
        f.keys = st.keys.keys().size();
      }
      e.commit();
    }
  }

  /** The keyring published a new snapshot. */
  public void changed(KeySet previous, KeySet current) {
    listener.keySetChanged(previous, current);
  }
}
