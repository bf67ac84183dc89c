package dev.sessionless.core.internal;

import java.util.Arrays;
import org.bouncycastle.crypto.CryptoServicesRegistrar;

/**
 * Initialises BouncyCastle's {@code CryptoServicesRegistrar} (which {@code ECDSASigner} consults)
 * without leaving anything behind on the current thread.
 *
 * <p>The registrar's static initialiser stores its default DSA and DH parameters as global
 * properties, and in doing so also copies them into a {@code ThreadLocal} of whichever thread
 * runs it. On a servlet container's worker thread those BouncyCastle objects would outlive an
 * undeployed webapp and pin its class loader. This forces the initialisation and then removes
 * this thread's copies when they are just the global defaults; a value an application set for
 * this thread on purpose is put back.
 */
final class BouncyCastleInit {
  private BouncyCastleInit() {}

  static void initialiseWithoutThreadState() {
    for (CryptoServicesRegistrar.Property p : new CryptoServicesRegistrar.Property[] {
      CryptoServicesRegistrar.Property.DSA_DEFAULT_PARAMS, CryptoServicesRegistrar.Property.DH_DEFAULT_PARAMS
    }) {
      Object[] local = CryptoServicesRegistrar.clearThreadProperty(p);
      if (local != null) {
        Object[] global = CryptoServicesRegistrar.getSizedProperty(p);
        if (!Arrays.equals(local, global)) {
          CryptoServicesRegistrar.setThreadProperty(p, local);
        }
      }
    }
  }
}
