package dev.sessionless.core.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Holds the engine's HMAC, computed from cloned digests with the first block's state kept, to
 * the JDK's own {@code Mac}: every message length around the block size, keys shorter than,
 * equal to and longer than a block (hashed first, as RFC 2104 says), and first blocks that
 * repeat, change and alternate, so a kept state is reused exactly when it may be.
 */
class HmacEngineTest {
  private static byte[] reference(String alg, byte[] key, byte[] msg, int len) throws Exception {
    Mac mac = Mac.getInstance(alg);
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
      assertTrue(engine.clonesDigests(), "the JDK's digests clone");
      byte[] msg = new byte[400];
      random.nextBytes(msg);
      for (int len = 0; len <= msg.length; len++) {
        assertArrayEquals(reference(alg, key, msg, len), sign(engine, msg, len), alg + " key " + keyLen + " length " + len);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"HmacSHA256", "HmacSHA512"})
  void aKeptFirstBlockIsUsedOnlyForMessagesThatStartWithIt(String alg) throws Exception {
    Random random = new Random(7);
    byte[] key = new byte[32];
    random.nextBytes(key);
    HmacEngine engine = new HmacEngine(alg, key);
    byte[] a = new byte[300];
    random.nextBytes(a);
    byte[] b = a.clone();
    b[0] ^= 1; // another first block
    byte[] c = a.clone();
    c[127] ^= (byte) 0x80; // the last byte of SHA-512's first block, inside SHA-256's second
    byte[] d = a.clone();
    d[250] ^= 4; // same first block, another tail
    List<byte[]> order = List.of(a, a, b, a, c, c, a, d, b, b, d, a);
    for (byte[] m : order) {
      for (int len : new int[] {300, 128, 127, 64, 63, 0}) {
        assertArrayEquals(reference(alg, key, m, len), sign(engine, m, len), alg + " length " + len);
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
}
