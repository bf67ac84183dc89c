package dev.sessionless.core.internal;

/**
 * BouncyCastle ({@code org.bouncycastle:bcprov-jdk18on}) is an optional dependency of core: only
 * ES256 and EdDSA keys use it, so an HS256 or {@code dir}+A256GCM application runs without its
 * 8 MB. This check runs before any class that links against BouncyCastle is touched, so a
 * missing jar becomes a message that says what to add instead of a {@code NoClassDefFoundError}.
 */
public final class BouncyCastleCheck {
  private static final boolean PRESENT = present();

  private BouncyCastleCheck() {}

  /**
   * Makes sure BouncyCastle can be loaded for a key of {@code algorithm}.
   *
   * @throws IllegalStateException if it cannot, naming the artifact to add
   */
  public static void require(String algorithm) {
    if (!PRESENT) {
      throw new IllegalStateException(algorithm + " keys need BouncyCastle, which is not on the class path:"
          + " add org.bouncycastle:bcprov-jdk18on (sessionless-keyring brings it); HS256/HS384/HS512 and"
          + " dir+A256GCM keys need nothing more than sessionless-core");
    }
  }

  private static boolean present() {
    try {
      Class.forName("org.bouncycastle.crypto.CryptoServicesRegistrar", false,
          BouncyCastleCheck.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }
}
