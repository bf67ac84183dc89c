package dev.sessionless.devicebinding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * The request header values as Chromium 156 really sends them (seen on the wire in the
 * real-browser runs of issue 38): {@code Secure-Session-Response} and {@code Sec-Secure-Session-Id}
 * arrive bare, not as the draft's quoted sf-string. Both forms must be read; anything else stays
 * {@code MALFORMED}.
 */
class ChromiumHeaderFormsTest {
  private static final String JWS = "eyJhbGciOiJFUzI1NiIsInR5cCI6ImRic2Mrand0In0.eyJqdGkiOiJjMSJ9.c2ln-_A";

  @Test
  void proofSentBareAsChromiumSendsItIsRead() {
    assertEquals(JWS, DbscHeaders.readProof(JWS));
    assertEquals(JWS, DbscHeaders.readProof("\"" + JWS + "\""));
  }

  @Test
  void sessionIdSentBareAsChromiumSendsItIsRead() {
    assertEquals("kQ3-x_9Zb2", DbscHeaders.readSessionId("kQ3-x_9Zb2"));
    assertEquals("kQ3-x_9Zb2", DbscHeaders.readSessionId("\"kQ3-x_9Zb2\""));
  }

  @Test
  void bareValuesWithOtherCharactersAreStillMalformed() {
    for (String bad : new String[] {"a b", "a,b", "a;b=c", "a\"b", "", "(a)", "é"}) {
      DeviceBindingException e = assertThrows(DeviceBindingException.class, () -> DbscHeaders.readProof(bad),
          bad);
      assertEquals(DeviceBindingException.Reason.MALFORMED, e.reason(), bad);
    }
  }
}
