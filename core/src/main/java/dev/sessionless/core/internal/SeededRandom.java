package dev.sessionless.core.internal;

import java.security.DrbgParameters;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.security.SecureRandomSpi;
import java.util.Arrays;

/**
 * The one source of randomness for what the library draws per operation: AES-GCM IVs, session
 * ids, trace and span ids, the verification cache's hash key, the blinding of ECDSA signing.
 * Shared by core and the modules above it (session, propagation) rather than each keeping its
 * own {@link SecureRandom}.
 *
 * <p><b>Why a DRBG.</b> The platform default on Linux ({@code NativePRNG}) refills its buffer
 * from {@code /dev/urandom} whenever that buffer is over 100 ms old, so a draw on a Reactor Netty
 * event loop is now and then a file read there: never a long wait once the kernel is seeded, but a
 * blocking call all the same, which BlockHound rightly reports. The JDK's {@code DRBG} (SP 800-90A
 * {@code Hash_DRBG} with SHA-256, asked for 256-bit security strength, no prediction resistance)
 * takes its entropy from the platform once, when it is instantiated, and after that computes its
 * output in memory: no file, no lock beyond its own. This class seeds it in its initialiser, so
 * that one blocking read happens where the class is first loaded (when a codec, a session engine
 * or a propagation filter is built: start-up), never on a request. Prediction resistance (a fresh
 * entropy read per draw) is not requested: it would bring the file read back onto every call, and
 * what is drawn here is either public (IVs, trace ids) or needs only unpredictability to an
 * outsider without access to this process's memory (session ids, hash keys), which a 256-bit
 * seeded Hash_DRBG gives. Reseeding happens only if the JDK's own reseed interval is ever reached.
 *
 * <p><b>AES-GCM.</b> IV uniqueness under one key rests only on these 96-bit IVs being drawn from
 * a CSPRNG (no counter, no state shared between nodes); the per-key usage limit is unchanged
 * (the keyring's per-node encryption budget, 2^28 by default, well under the 2^32 random IVs
 * per key that NIST SP 800-38D allows).
 *
 * <p>Falls back to the platform default only where the JDK's providers offer no DRBG (a
 * restricted provider list); key generation ({@code TokenKey.generate}) keeps the platform default.
 * Thread-safe: the JDK's DRBG is, and {@link SecureRandom} serialises calls into the buffer.
 *
 * <p><b>Buffered.</b> A {@code Hash_DRBG} call costs the same few hashes however little it is
 * asked for: ~0.4 µs for a 12-byte IV against ~0.18 µs from {@code NativePRNG}'s buffer
 * ({@code RandomDrawBenchmark} in the benchmarks module), twice per encrypted token written (IV
 * and {@code jti}). So draws are served from a {@value #BLOCK}-byte block the DRBG fills at once
 * (~0.06 µs a draw); each byte is handed out once and zeroed in the block as it leaves, so the
 * block holds only bytes nobody has seen.
 */
public final class SeededRandom {
  private static final SecureRandom RANDOM = seeded();

  private SeededRandom() {}

  /** Bytes drawn from the DRBG at once. */
  static final int BLOCK = 512;

  private static SecureRandom seeded() {
    SecureRandom r;
    try {
      r = SecureRandom.getInstance("DRBG",
          DrbgParameters.instantiation(256, DrbgParameters.Capability.RESEED_ONLY, null));
    } catch (NoSuchAlgorithmException | IllegalArgumentException e) {
      r = new SecureRandom();
    }
    r.nextBytes(new byte[1]); // a DRBG instantiates (reads its entropy) on first use: now
    return new Buffered(new BlockSpi(r));
  }

  /** A {@link SecureRandom} over {@link BlockSpi}; calls into it are serialised by {@code SecureRandom}. */
  private static final class Buffered extends SecureRandom {
    private static final long serialVersionUID = 1L;

    Buffered(SecureRandomSpi spi) {
      super(spi, null);
    }
  }

  /** Hands out the DRBG's output a block at a time, each byte once. */
  private static final class BlockSpi extends SecureRandomSpi {
    private static final long serialVersionUID = 1L;
    private final SecureRandom drbg;
    private final byte[] block = new byte[BLOCK];
    private int at = BLOCK;

    BlockSpi(SecureRandom drbg) {
      this.drbg = drbg;
    }

    @Override
    protected void engineSetSeed(byte[] seed) {
      drbg.setSeed(seed);
    }

    @Override
    protected void engineNextBytes(byte[] bytes) {
      int off = 0;
      while (off < bytes.length) {
        if (at == BLOCK) {
          drbg.nextBytes(block);
          at = 0;
        }
        int n = Math.min(bytes.length - off, BLOCK - at);
        System.arraycopy(block, at, bytes, off, n);
        Arrays.fill(block, at, at + n, (byte) 0);
        at += n;
        off += n;
      }
    }

    @Override
    protected byte[] engineGenerateSeed(int numBytes) {
      return drbg.generateSeed(numBytes);
    }
  }

  /**
   * Makes sure the source is seeded (loading this class does it): call where the caller is built,
   * so that its one entropy read is not on a request.
   */
  public static void seed() {
    // nothing more: the class initialiser seeded it
  }

  /** The shared source, for APIs that take a {@link SecureRandom}. Do not reseed or wrap it per call. */
  public static SecureRandom source() {
    return RANDOM;
  }

  /** Fills {@code b} with random bytes. */
  public static void nextBytes(byte[] b) {
    RANDOM.nextBytes(b);
  }

  /** 128 random bits, base64url (22 characters): a new session id. */
  public static String newId() {
    byte[] b = new byte[16];
    RANDOM.nextBytes(b);
    return Base64Url.encode(b);
  }

  /** A random {@code long}. */
  public static long nextLong() {
    return RANDOM.nextLong();
  }
}
