package dev.sessionless.servlet.it;

/** A registered type Jackson cannot read back (no properties, no creator). */
public final class Opaque {
  private final String secret;

  public Opaque(String secret) {
    this.secret = secret;
  }

  @Override
  public String toString() {
    return secret;
  }
}
