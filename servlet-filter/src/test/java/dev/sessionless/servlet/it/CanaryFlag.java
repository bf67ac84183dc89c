package dev.sessionless.servlet.it;

/** Set when {@code LoadCanary} is initialised. */
public final class CanaryFlag {
  public static volatile boolean LOADED;

  private CanaryFlag() {}
}
