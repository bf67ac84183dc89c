package dev.sessionless.spring.boot.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.security.authentication.AuthenticationServiceException;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.LockedException;

/** The last login failure as its kind and message, and back. */
class AuthenticationFailureValuesTest {
  @Test
  void accountExceptionsComeBackAsThemselvesWithTheirMessage() {
    Object back = AuthenticationFailureValues.read(AuthenticationFailureValues.write(new LockedException("locked out")));
    assertEquals("locked out", assertInstanceOf(LockedException.class, back).getMessage());
  }

  @Test
  void anyOtherFailureComesBackAsBadCredentialsWithItsMessage() {
    Map<String, Object> values = AuthenticationFailureValues.write(new AuthenticationServiceException("down"));
    assertEquals(Map.of("kind", "bad-credentials", "message", "down"), values);
    assertInstanceOf(BadCredentialsException.class, AuthenticationFailureValues.read(values));
  }
}
