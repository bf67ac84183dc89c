package dev.sessionless.core.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Base64;
import org.junit.jupiter.api.Test;

/** The one base64url decoder: canonical only, padding accepted only where a person may paste it. */
class Base64UrlTest {
  private static final byte[][] SAMPLES = {
    {}, {1}, {1, 2}, {1, 2, 3}, {(byte) 0xff, (byte) 0xfe, (byte) 0xfd, (byte) 0xfc},
  };

  @Test
  void canonicalTextDecodesWithOrWithoutPaddingWhenPaddingIsOptional() {
    for (byte[] b : SAMPLES) {
      String bare = Base64.getUrlEncoder().withoutPadding().encodeToString(b);
      String padded = Base64.getUrlEncoder().encodeToString(b);
      assertArrayEquals(b, Base64Url.decode(bare));
      assertArrayEquals(b, Base64Url.decodeOptionallyPadded(bare));
      assertArrayEquals(b, Base64Url.decodeOptionallyPadded(padded));
    }
  }

  @Test
  void strictDecodeRefusesPaddingAndBothRefuseStrayBitsWrongPaddingAndForeignCharacters() {
    assertNull(Base64Url.decode("AQ=="), "padding is not canonical in a token");
    for (String bad : new String[] {"AR", "AR==", "AQ=", "AQ===", "AQI==", "A=Q=", "AQ I", "AQ+/", "AQ\n", "A"}) {
      assertNull(Base64Url.decodeOptionallyPadded(bad), bad);
      assertNull(Base64Url.decode(bad), bad);
    }
  }
}
