package dev.sessionless.core.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.crypto.signers.HMacDSAKCalculator;
import org.bouncycastle.util.BigIntegers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * ES256 signing computes the affine x itself (to blind the Z inversion with core's seeded source
 * rather than BouncyCastle's default {@code SecureRandom}); its signatures must be exactly those
 * of BouncyCastle's {@code ECDSASigner} with the same RFC 6979 nonce, and RFC 6979's own vectors.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EcP256EngineTest {
  static byte[] sha256(byte[] in) {
    SHA256Digest md = new SHA256Digest();
    md.update(in, 0, in.length);
    byte[] out = new byte[32];
    md.doFinal(out, 0);
    return out;
  }

  /** RFC 6979 appendix A.2.5 (P-256, SHA-256), messages "sample" and "test". */
  @Test
  void signaturesAreRfc6979sVectors() {
    BigInteger d = new BigInteger("C9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721", 16);
    BigInteger[] sample = EcP256Engine.signDigest(d, sha256("sample".getBytes(StandardCharsets.US_ASCII)));
    assertEquals(new BigInteger("EFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716", 16), sample[0]);
    assertEquals(new BigInteger("F7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8", 16), sample[1]);
    BigInteger[] test = EcP256Engine.signDigest(d, sha256("test".getBytes(StandardCharsets.US_ASCII)));
    assertEquals(new BigInteger("F1ABB023518351CD71D881567B1EA663ED3EFCF6C5132B354F28D3B0B7D38367", 16), test[0]);
    assertEquals(new BigInteger("019F4113742A2B14BD25926B49C649155F267E60D3814B4C0CC84250E46F0083", 16), test[1]);
  }

  @Test
  void signaturesAreThoseOfBouncyCastlesEcdsaSignerAndVerify() {
    Random seeds = new Random(37); // test data only: keys and messages, not the signing's randomness
    for (int i = 0; i < 200; i++) {
      EcP256Engine key = EcP256Engine.generate(new SecureRandom());
      byte[] message = new byte[seeds.nextInt(300)];
      seeds.nextBytes(message);
      byte[] ours = new byte[64];
      assertEquals(64, key.sign(message, message.length, ours));

      ECDSASigner bc = new ECDSASigner(new HMacDSAKCalculator(new SHA256Digest()));
      bc.init(true, new ECPrivateKeyParameters(new BigInteger(1, key.d()), EcP256Engine.DOMAIN));
      BigInteger[] rs = bc.generateSignature(sha256(message));
      byte[] theirs = new byte[64];
      System.arraycopy(BigIntegers.asUnsignedByteArray(32, rs[0]), 0, theirs, 0, 32);
      System.arraycopy(BigIntegers.asUnsignedByteArray(32, rs[1]), 0, theirs, 32, 32);
      assertArrayEquals(theirs, ours, "signature " + i);
      assertTrue(key.publicOnly().verify(message, message.length, ours, 64));
    }
  }
}
