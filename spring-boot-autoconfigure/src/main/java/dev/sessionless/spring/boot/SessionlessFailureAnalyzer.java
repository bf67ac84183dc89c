package dev.sessionless.spring.boot;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;

/**
 * Turns a Sessionless startup failure into Boot's "APPLICATION FAILED TO START" block, naming
 * the property to set, instead of a long stack trace: a {@link SessionlessStartupException}
 * with its own description and action, or another {@link IllegalStateException} thrown by this
 * auto-configuration (whose message names the property). Registered in {@code
 * META-INF/spring.factories}; Boot instantiates it.
 */
public final class SessionlessFailureAnalyzer implements FailureAnalyzer {
  private static final String OWN_PACKAGE = "dev.sessionless.spring.boot.";

  /** Used by Boot. */
  public SessionlessFailureAnalyzer() {}

  /** The analysis of the first Sessionless failure in {@code failure}'s causes, or null if none. */
  @Override
  public FailureAnalysis analyze(Throwable failure) {
    int depth = 0;
    for (Throwable t = failure; t != null && depth < 64; t = t.getCause(), depth++) {
      if (t instanceof SessionlessStartupException) {
        SessionlessStartupException e = (SessionlessStartupException) t;
        return new FailureAnalysis("Sessionless: " + e.description() + ".", e.action(), e);
      }
    }
    depth = 0;
    for (Throwable t = failure; t != null && depth < 64; t = t.getCause(), depth++) {
      StackTraceElement[] frames = t.getStackTrace();
      if (t instanceof IllegalStateException && frames.length > 0 && frames[0].getClassName().startsWith(OWN_PACKAGE)) {
        return new FailureAnalysis("Sessionless: " + t.getMessage(),
            "Set the sessionless.* property named above (see the Sessionless Spring Boot README).", t);
      }
    }
    return null;
  }
}
