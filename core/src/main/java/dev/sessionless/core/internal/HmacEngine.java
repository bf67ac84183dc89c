package dev.sessionless.core.internal;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.SecretKeySpec;

/**
 * HMAC-SHA-2 (RFC 2104) with its keyed state kept in this engine's own {@link Pool}: made once,
 * reused by any thread, and living exactly as long as this engine, so a retired secret leaves
 * memory with its key.
 *
 * <p>The MAC is computed from the JDK's own {@code MessageDigest} (and its SHA intrinsics), not
 * its {@code Mac}, for one reason: the first block of the inner hash is the key XOR ipad, and the
 * next is, for tokens of one key and codec, the same header and the start of the same claims
 * every time. The digest state after those two blocks is kept and cloned for the next message
 * that starts with the same block, which saves two of the ~eight compressions of a typical
 * token (and {@code Mac}'s resets); the result is bit for bit HMAC, which {@code HmacEngineTest}
 * holds to the JDK's {@code Mac} over every length and key size. The next message's first block
 * is compared with the kept one in constant time (for HS384 and HS512 it reaches into the
 * claims), and a failed verify clears what it computed (the forged message's correct MAC, the
 * inner hash) and drops the kept block, so neither stays in the pool.
 *
 * <p>That shortcut is taken only with the JDK's own providers: SHA-2 from {@code SUN} and HMAC
 * from {@code SunJCE}, the ones a plain JVM picks. Where another provider comes first for either
 * (a FIPS module such as BC-FIPS, a PKCS#11 token, an HSM), the HMAC must be that provider's, not
 * one built here around its digest, so the engine uses a keyed {@code Mac} from the JCA, as it
 * does when the digest cannot be cloned, and as it does everywhere when the system property
 * {@value #IMPLEMENTATION_PROPERTY} is {@code jca}.
 */
public final class HmacEngine extends KeyEngine {
  /**
   * Set to {@code jca} to compute every HMAC through the JCA {@code Mac} (as {@code
   * dev.sessionless.fastpath.hmac=off} does; read once, see {@link FastPaths}).
   */
  public static final String IMPLEMENTATION_PROPERTY = FastPaths.HMAC_PROPERTY;

  private final String jcaName;
  private final int macLength;
  private final int blockLength;
  /** Absorbed (key XOR ipad); cloned, never updated. {@code null}: the {@code Mac} fallback. */
  private final MessageDigest innerKeyed;
  /** The key XOR opad, the outer hash's first block. */
  private final byte[] outerPad;
  /** The keyed {@code Mac} when digests are not used; cloned per pooled state. */
  private final Mac prototype;
  /** The key, kept only on the {@code Mac} path, for a provider whose {@code Mac} cannot be cloned. */
  private final SecretKeySpec macKey;
  private final Pool<Keyed> pool;

  /** One computation's state: work buffers and the last first block seen, with its digest. */
  private final class Keyed {
    final byte[] expected = new byte[64];
    final byte[] inner = new byte[64];
    final Mac mac;
    final MessageDigest outer;
    final MessageDigest ipad;
    /** The first block of the last message, and the inner digest having absorbed it. */
    final byte[] firstBlock;
    MessageDigest afterFirst;

    Keyed() throws CloneNotSupportedException {
      synchronized (HmacEngine.this) {
        this.mac = innerKeyed == null ? macCopy() : null;
        this.ipad = innerKeyed == null ? null : (MessageDigest) innerKeyed.clone();
      }
      this.outer = ipad == null ? null : newDigest();
      this.firstBlock = ipad == null ? null : new byte[blockLength];
    }

    void compute(byte[] in, int len, byte[] out) throws GeneralSecurityException, CloneNotSupportedException {
      if (mac != null) {
        mac.update(in, 0, len);
        mac.doFinal(out, 0); // also resets the Mac for its next use
        return;
      }
      MessageDigest d;
      int b = blockLength;
      if (len < b) {
        d = (MessageDigest) ipad.clone();
        d.update(in, 0, len);
      } else if (afterFirst != null && ConstantTime.equals(in, 0, firstBlock, 0, b)) {
        // In constant time: for HS384 and HS512 the block reaches into the claims, and an
        // early-exit compare would tell a caller how much of another token's start it guessed.
        d = (MessageDigest) afterFirst.clone();
        d.update(in, b, len - b);
      } else {
        d = (MessageDigest) ipad.clone();
        d.update(in, 0, b);
        afterFirst = (MessageDigest) d.clone();
        System.arraycopy(in, 0, firstBlock, 0, b);
        d.update(in, b, len - b);
      }
      d.digest(inner, 0, macLength);
      outer.update(outerPad);
      outer.update(inner, 0, macLength);
      outer.digest(out, 0, macLength); // also resets the digest for its next use
      Arrays.fill(inner, (byte) 0);
    }

    /**
     * After a failed verify: nothing computed from the forged message stays in the pool, neither
     * its correct MAC nor a digest state keyed and fed with its first block (which a later
     * message would otherwise be compared with).
     */
    void forget() {
      Arrays.fill(expected, (byte) 0);
      Arrays.fill(inner, (byte) 0);
      if (firstBlock != null) {
        Arrays.fill(firstBlock, (byte) 0);
      }
      afterFirst = null;
    }

    /** Whether no buffer holds anything and no first block is kept (for tests). */
    boolean holdsNothing() {
      return afterFirst == null && zero(expected) && zero(inner) && (firstBlock == null || zero(firstBlock));
    }
  }

  private static boolean zero(byte[] b) {
    int acc = 0;
    for (byte x : b) {
      acc |= x;
    }
    return acc == 0;
  }

  /**
   * @param jcaName {@code HmacSHA256}, {@code HmacSHA384} or {@code HmacSHA512}
   * @param secret the secret; copied
   */
  public HmacEngine(String jcaName, byte[] secret) {
    this.jcaName = jcaName;
    this.blockLength = jcaName.equals("HmacSHA256") ? 64 : 128;
    MessageDigest inner = null;
    byte[] opad = null;
    Mac fallback = null;
    if (jdkProviders(jcaName)) {
      byte[] pad = new byte[blockLength];
      try {
        inner = keyedInner(secret, pad);
        opad = pad;
      } catch (CloneNotSupportedException e) {
        // this provider's digests cannot be cloned: the Mac path below
      }
    }
    SecretKeySpec keySpec = null;
    if (inner == null) {
      try {
        keySpec = new SecretKeySpec(secret, jcaName);
        fallback = Mac.getInstance(jcaName);
        fallback.init(keySpec);
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException(jcaName + " is not available in this JVM", e);
      }
    }
    this.innerKeyed = inner;
    this.outerPad = opad;
    this.prototype = fallback;
    this.macKey = keySpec;
    this.macLength = inner != null ? inner.getDigestLength() : fallback.getMacLength();
    this.pool = new Pool<>(this::newKeyed);
  }

  /**
   * The inner digest having absorbed (key XOR ipad), with (key XOR opad) written to {@code
   * opad}; a key longer than a block is hashed first (RFC 2104). Key material is cleared.
   *
   * @throws CloneNotSupportedException when the provider's digests cannot be cloned
   */
  private MessageDigest keyedInner(byte[] secret, byte[] opad) throws CloneNotSupportedException {
    MessageDigest inner = newDigest();
    inner.clone(); // fails here, once, for a provider whose digests cannot be cloned
    byte[] key = new byte[blockLength];
    if (secret.length > blockLength) {
      byte[] hashed = newDigest().digest(secret);
      System.arraycopy(hashed, 0, key, 0, hashed.length);
      Arrays.fill(hashed, (byte) 0);
    } else {
      System.arraycopy(secret, 0, key, 0, secret.length);
    }
    byte[] ipad = new byte[blockLength];
    for (int i = 0; i < blockLength; i++) {
      ipad[i] = (byte) (key[i] ^ 0x36);
      opad[i] = (byte) (key[i] ^ 0x5c);
    }
    inner.update(ipad);
    Arrays.fill(ipad, (byte) 0);
    Arrays.fill(key, (byte) 0);
    return inner;
  }

  /**
   * Whether HMAC may be computed here from digests: the fast path is on ({@link FastPaths}), and
   * this JVM picks its own {@code SUN} digest and {@code SunJCE} HMAC for the algorithm.
   */
  static boolean jdkProviders(String jcaName) {
    if (!FastPaths.on(FastPaths.Path.HMAC)) {
      return false;
    }
    try {
      return "SUN".equals(MessageDigest.getInstance(digestName(jcaName)).getProvider().getName())
          && "SunJCE".equals(Mac.getInstance(jcaName).getProvider().getName());
    } catch (GeneralSecurityException e) {
      return false; // the Mac path then says what is missing
    }
  }

  private static String digestName(String jcaName) {
    return jcaName.equals("HmacSHA256") ? "SHA-256" : jcaName.equals("HmacSHA384") ? "SHA-384" : "SHA-512";
  }

  private MessageDigest newDigest() {
    String name = digestName(jcaName);
    try {
      return MessageDigest.getInstance(name);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(name + " (for " + jcaName + ") is not available in this JVM", e);
    }
  }

  /** A copy of the keyed {@code Mac}: a clone, or a new one where the provider's cannot be cloned. */
  private Mac macCopy() {
    try {
      return (Mac) prototype.clone();
    } catch (CloneNotSupportedException e) {
      try {
        Mac m = Mac.getInstance(jcaName, prototype.getProvider());
        m.init(macKey);
        return m;
      } catch (GeneralSecurityException e2) {
        throw new IllegalStateException(jcaName + " of " + prototype.getProvider().getName() + " failed", e2);
      }
    }
  }

  private Keyed newKeyed() {
    try {
      return new Keyed();
    } catch (CloneNotSupportedException e) {
      throw new IllegalStateException(jcaName + " of this JVM's provider cannot be cloned", e);
    }
  }

  @Override
  public boolean canSign() {
    return true;
  }

  @Override
  public int signatureLength() {
    return macLength;
  }

  @Override
  public int sign(byte[] in, int len, byte[] out) {
    Keyed k = pool.take();
    compute(k, in, len, out);
    pool.give(k);
    return macLength;
  }

  @Override
  public boolean verify(byte[] in, int len, byte[] sig, int sigLen) {
    if (sigLen != macLength) {
      return false;
    }
    Keyed k = pool.take();
    compute(k, in, len, k.expected);
    boolean ok = ConstantTime.equals(k.expected, 0, sig, 0, macLength);
    if (!ok) {
      k.forget();
    }
    pool.give(k);
    return ok;
  }

  private void compute(Keyed k, byte[] in, int len, byte[] out) {
    try {
      k.compute(in, len, out);
    } catch (GeneralSecurityException | CloneNotSupportedException e) {
      throw new IllegalStateException(jcaName + " failed", e);
    }
  }

  /** Whether this engine computes from cloned digests (else through a keyed {@code Mac}); for tests. */
  boolean clonesDigests() {
    return innerKeyed != null;
  }

  /** How many keyed states this engine holds in its pool now (for tests). */
  int pooled() {
    return pool.size();
  }

  /** Whether every pooled state holds no MAC, inner hash or kept first block (for tests). */
  boolean pooledStatesHoldNothing() {
    for (Keyed k : pool.pooledNow()) {
      if (!k.holdsNothing()) {
        return false;
      }
    }
    return true;
  }
}
