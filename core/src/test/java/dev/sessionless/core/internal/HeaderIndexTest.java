package dev.sessionless.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The header look-up finds exactly the key set's own headers, including ones its hash cannot tell
 * apart (alike at the start, the middle and the end), and nothing else.
 */
class HeaderIndexTest {
  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  @Test
  void everyHeaderIsFoundEvenWhenItsHashCollides() {
    // 40 bytes: the hash reads [0, 8), [16, 24) and [32, 40); these differ only at byte 10 or 28.
    String base = "eyJhbGciOiJIUzI1NiIsImtpZCI6IjIwMjYtMTEi";
    List<HeaderIndex.Entry<String>> entries = new ArrayList<>();
    List<String> headers = new ArrayList<>();
    for (char c : "ABCDEFGHIJ".toCharArray()) {
      String h = base.substring(0, 10) + c + base.substring(11, 28) + c + base.substring(29);
      headers.add(h);
      entries.add(new HeaderIndex.Entry<>(bytes(h), "key-" + c, c - 'A'));
    }
    headers.add("eyJ9");
    entries.add(new HeaderIndex.Entry<>(bytes("eyJ9"), "short", 0));
    HeaderIndex<String> index = new HeaderIndex<>(entries);
    for (int i = 0; i < headers.size(); i++) {
      byte[] token = bytes("xx" + headers.get(i) + ".payload");
      HeaderIndex.Entry<String> found = index.find(token, 2, 2 + headers.get(i).length());
      assertEquals(entries.get(i).key, found.key, headers.get(i));
    }
    assertNull(index.find(bytes(base), 0, base.length()), "a header the set does not write");
    assertNull(index.find(bytes("eyJ8"), 0, 4));
    assertNull(index.find(bytes(headers.get(0)), 0, 39), "a prefix of one");
  }
}
