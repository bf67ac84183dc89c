package dev.sessionless.servlet.it;

/** A class no test names in code: if the filter ever loads it by name, its initialiser tells. */
public final class LoadCanary {
  static {
    CanaryFlag.LOADED = true;
  }

  public String value;
}
