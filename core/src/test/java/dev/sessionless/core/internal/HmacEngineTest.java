package dev.sessionless.core.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.Key;
import java.security.MessageDigest;
import java.security.MessageDigestSpi;
import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.security.Security;
import java.security.spec.AlgorithmParameterSpec;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.crypto.Mac;
import javax.crypto.MacSpi;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Holds the engine's HMAC (the JCA {@code Mac}, pooled) to the JDK's own {@code Mac}: every message
 * length, keys shorter than, equal to and longer than a block; a failed verify leaves nothing of
 * the forged message in the pool; and a provider put first (a FIPS module, say) has its own
 * {@code Mac} used, even one that cannot be cloned.
 */
class HmacEngineTest {
  /** The JDK's own {@code Mac}, named, so that a provider put first in a test is not asked. */
  private static byte[] reference(String alg, byte[] key, byte[] msg, int len) throws Exception {
    Mac mac = Mac.getInstance(alg, "SunJCE");
    mac.init(new SecretKeySpec(key, alg));
    mac.update(msg, 0, len);
    return mac.doFinal();
  }

  private static byte[] sign(HmacEngine e, byte[] msg, int len) {
    byte[] out = new byte[64];
    int n = e.sign(msg, len, out);
    return Arrays.copyOf(out, n);
  }

  @ParameterizedTest
  @ValueSource(strings = {"HmacSHA256", "HmacSHA384", "HmacSHA512"})
  void everyLengthAndKeySizeGivesTheJdksMac(String alg) throws Exception {
    Random random = new Random(alg.hashCode());
    for (int keyLen : new int[] {1, 32, 63, 64, 65, 127, 128, 129, 300}) {
      byte[] key = new byte[keyLen];
      random.nextBytes(key);
      HmacEngine engine = new HmacEngine(alg, key);
      byte[] msg = new byte[400];
      random.nextBytes(msg);
      for (int len = 0; len <= msg.length; len++) {
        assertArrayEquals(reference(alg, key, msg, len), sign(engine, msg, len), alg + " key " + keyLen + " length " + len);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"HmacSHA256", "HmacSHA384"})
  void verifyAcceptsTheMacAndNothingElse(String alg) throws Exception {
    byte[] key = "a secret of thirty-two bytes....".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    HmacEngine engine = new HmacEngine(alg, key);
    byte[] msg = new byte[200];
    new Random(3).nextBytes(msg);
    byte[] mac = reference(alg, key, msg, msg.length);
    assertTrue(engine.verify(msg, msg.length, mac, mac.length));
    for (int i = 0; i < mac.length; i++) {
      byte[] bad = mac.clone();
      bad[i] ^= 1;
      assertFalse(engine.verify(msg, msg.length, bad, bad.length), "bit flipped in byte " + i);
    }
    assertFalse(engine.verify(msg, msg.length, mac, mac.length - 1), "a short MAC");
    byte[] other = msg.clone();
    other[199] ^= 1;
    assertFalse(engine.verify(other, other.length, mac, mac.length), "another message");
    assertTrue(engine.verify(msg, msg.length, mac, mac.length), "and the MAC still verifies after");
  }

  @ParameterizedTest
  @ValueSource(strings = {"HmacSHA256", "HmacSHA512"})
  @org.junit.jupiter.api.Timeout(30)
  void failedVerifyLeavesNotTheForgedMessagesMacInThePool(String alg) throws Exception {
    byte[] key = new byte[32];
    new Random(8).nextBytes(key);
    HmacEngine engine = new HmacEngine(alg, key);
    byte[] forged = new byte[300];
    new Random(9).nextBytes(forged);
    byte[] wrong = new byte[engine.signatureLength()];
    assertFalse(engine.verify(forged, forged.length, wrong, wrong.length));
    assertEquals(1, engine.pooled());
    assertTrue(engine.pooledStatesHoldNothing(), "the forged message's correct MAC stayed pooled");
    // And the engine still verifies afterwards, from the start.
    byte[] mac = reference(alg, key, forged, forged.length);
    assertTrue(engine.verify(forged, forged.length, mac, mac.length));
  }

  @Test
  void threadsSharingOneEngineEachGetTheRightMac() throws Exception {
    int threads = 4;
    byte[] key = new byte[32];
    new Random(11).nextBytes(key);
    HmacEngine engine = new HmacEngine("HmacSHA256", key);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Boolean>> results = new java.util.ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int seed = t;
        results.add(pool.submit(() -> {
          Random random = new Random(seed);
          byte[][] messages = new byte[3][260];
          for (byte[] m : messages) {
            random.nextBytes(m);
          }
          for (int i = 0; i < 3_000; i++) {
            byte[] m = messages[random.nextInt(3)];
            int len = 60 + random.nextInt(200);
            if (!Arrays.equals(reference("HmacSHA256", key, m, len), sign(engine, m, len))) {
              return false;
            }
          }
          return true;
        }));
      }
      for (Future<Boolean> f : results) {
        assertTrue(f.get(), "a thread computed a wrong MAC");
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void anotherProviderFirstGetsItsOwnMacEvenOneThatCannotBeCloned() throws Exception {
    byte[] key = new byte[32];
    new Random(5).nextBytes(key);
    Security.insertProviderAt(new FirstProvider(), 1);
    HmacEngine engine;
    try {
      engine = new HmacEngine("HmacSHA256", key);
      assertTrue(Mac.getInstance("HmacSHA256").getProvider() instanceof FirstProvider);
      // three threads at once make three pooled states, each from a new Mac (this one has no clone)
      ExecutorService pool = Executors.newFixedThreadPool(3);
      try {
        List<Future<Boolean>> results = new java.util.ArrayList<>();
        for (int t = 0; t < 3; t++) {
          int seed = t;
          results.add(pool.submit(() -> {
            Random random = new Random(seed);
            byte[] m = new byte[200];
            for (int i = 0; i < 500; i++) {
              random.nextBytes(m);
              if (!Arrays.equals(reference("HmacSHA256", key, m, 200), sign(engine, m, 200))) {
                return false;
              }
            }
            return true;
          }));
        }
        for (Future<Boolean> f : results) {
          assertTrue(f.get(), "a wrong MAC through the provider's Mac");
        }
      } finally {
        pool.shutdownNow();
      }
      assertTrue(FirstProvider.macsMade > 0, "the MACs came from the provider put first");
    } finally {
      Security.removeProvider(FirstProvider.NAME);
    }
  }

  /**
   * A provider put ahead of the JDK's, as a FIPS module would be, serving SHA-256 and HmacSHA256
   * through the JDK's own implementations; its {@code Mac} cannot be cloned.
   */
  private static final class FirstProvider extends Provider {
    static final String NAME = "SessionlessTestFirst";
    private static final long serialVersionUID = 1L;
    static volatile int macsMade;

    FirstProvider() {
      super(NAME, "1", "SHA-256 and HmacSHA256 ahead of the JDK's providers, for HmacEngineTest");
      putService(new Service(this, "MessageDigest", "SHA-256", Sha256.class.getName(), null, null) {
        @Override
        public Object newInstance(Object parameter) throws NoSuchAlgorithmException {
          return new Sha256();
        }
      });
      putService(new Service(this, "Mac", "HmacSHA256", UncloneableHmac.class.getName(), null, null) {
        @Override
        public Object newInstance(Object parameter) throws NoSuchAlgorithmException {
          macsMade++;
          return new UncloneableHmac();
        }
      });
    }
  }

  private static final class Sha256 extends MessageDigestSpi implements Cloneable {
    private MessageDigest d;

    Sha256() throws NoSuchAlgorithmException {
      try {
        d = MessageDigest.getInstance("SHA-256", "SUN");
      } catch (java.security.NoSuchProviderException e) {
        throw new NoSuchAlgorithmException(e);
      }
    }

    Sha256(MessageDigest d) {
      this.d = d;
    }

    @Override
    protected void engineUpdate(byte input) {
      d.update(input);
    }

    @Override
    protected void engineUpdate(byte[] input, int offset, int len) {
      d.update(input, offset, len);
    }

    @Override
    protected byte[] engineDigest() {
      return d.digest();
    }

    @Override
    protected void engineReset() {
      d.reset();
    }

    @Override
    public Object clone() throws CloneNotSupportedException {
      return new Sha256((MessageDigest) d.clone());
    }
  }

  private static final class UncloneableHmac extends MacSpi {
    private final Mac mac;

    UncloneableHmac() throws NoSuchAlgorithmException {
      try {
        mac = Mac.getInstance("HmacSHA256", "SunJCE");
      } catch (java.security.NoSuchProviderException e) {
        throw new NoSuchAlgorithmException(e);
      }
    }

    @Override
    protected int engineGetMacLength() {
      return mac.getMacLength();
    }

    @Override
    protected void engineInit(Key key, AlgorithmParameterSpec params) throws java.security.InvalidKeyException {
      mac.init(key);
    }

    @Override
    protected void engineUpdate(byte input) {
      mac.update(input);
    }

    @Override
    protected void engineUpdate(byte[] input, int offset, int len) {
      mac.update(input, offset, len);
    }

    @Override
    protected byte[] engineDoFinal() {
      return mac.doFinal();
    }

    @Override
    protected void engineReset() {
      mac.reset();
    }
  }
}
