package dev.sessionless.benchmarks;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The filter benchmark's response check ({@code RawHttp.complete}): the client
 * side of the harness, which must find a response's end whatever its header case and however
 * long a {@code Set-Cookie} comes before {@code Content-Length}.
 */
class FilterOverheadHarnessTest {
  private static final String LONG_COOKIE = "Set-Cookie: SESSIONLESS=" + "eyJhbGciOiJIUzI1NiJ9".repeat(40)
      + "; Path=/; HttpOnly\r\n";

  private static ByteBuffer bytes(String s) {
    return ByteBuffer.wrap(s.getBytes(StandardCharsets.ISO_8859_1));
  }

  @Test
  void aWholeResponseWithItsLengthAfterALongCookieIsComplete() {
    String head = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n" + LONG_COOKIE;
    assertTrue(RawHttp.complete(bytes(head + "Content-Length: 7\r\n\r\nitems=3")));
    assertTrue(RawHttp.complete(bytes(head + "content-length:7\r\n\r\nitems=3")));
    assertTrue(RawHttp.complete(bytes(head + "CONTENT-LENGTH:   7\r\n\r\nitems=3")));
  }

  @Test
  void aBodyShortOfItsLengthOrAMissingHeaderEndIsNotYetComplete() {
    String head = "HTTP/1.1 200 OK\r\n" + LONG_COOKIE;
    assertFalse(RawHttp.complete(bytes(head + "Content-Length: 7\r\n\r\nitems")));
    assertFalse(RawHttp.complete(bytes(head + "Content-Length: 7\r\n")));
  }

  @Test
  void aLengthNamedInsideAnotherHeaderValueIsNotTheLength() {
    // "content-length:" inside a cookie value is not at a line start; the real header is 7.
    String response = "HTTP/1.1 200 OK\r\nSet-Cookie: a=content-length:99\r\nContent-Length: 7\r\n\r\nitems=3";
    assertTrue(RawHttp.complete(bytes(response)));
  }

  @Test
  void aResponseOutsideTheHeapIsReadTheSameWay() {
    byte[] whole = ("HTTP/1.1 200 OK\r\n" + LONG_COOKIE + "Content-Length: 7\r\n\r\nitems=3")
        .getBytes(StandardCharsets.ISO_8859_1);
    ByteBuffer direct = ByteBuffer.allocateDirect(whole.length);
    direct.put(whole).flip();
    assertTrue(RawHttp.complete(direct));
    direct.limit(whole.length - 1);
    assertFalse(RawHttp.complete(direct));
  }

  @Test
  void anotherStatusOrABodyWithoutALengthIsRefused() {
    assertThrows(IllegalStateException.class,
        () -> RawHttp.complete(bytes("HTTP/1.1 500 Server Error\r\nContent-Length: 0\r\n\r\n")));
    assertThrows(IllegalStateException.class,
        () -> RawHttp.complete(bytes("HTTP/1.1 200 OK\r\n" + LONG_COOKIE + "\r\nitems=3")));
  }
}
