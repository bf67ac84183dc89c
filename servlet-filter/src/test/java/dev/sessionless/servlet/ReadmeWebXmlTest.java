package dev.sessionless.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.EncryptedJwks;
import dev.sessionless.keyring.Keyring;
import dev.sessionless.testing.ReadmeBlocks;
import jakarta.servlet.DispatcherType;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The root README's {@code web.xml} snippet configures a working filter: its class, async flag,
 * every dispatcher type, and every init parameter as written (only the key file's path points at
 * a file this test makes, since {@code /run/secrets} is the reader's).
 */
class ReadmeWebXmlTest {
  private static Document snippet() throws Exception {
    List<String> lines = ReadmeBlocks.markdown(Path.of("../README.md"), "readme-webxml");
    assertFalse(lines.isEmpty(), "the root README has no readme-webxml block");
    String xml = "<web-app>" + String.join("\n", lines) + "</web-app>";
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    return f.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
  }

  private static String text(Element parent, String tag) {
    return parent.getElementsByTagName(tag).item(0).getTextContent().trim();
  }

  @Test
  void readmeWebXmlMapsTheFilterForEveryDispatchAndItsInitParametersBuildAFilter(@TempDir Path dir) throws Exception {
    Document doc = snippet();
    Element filter = (Element) doc.getElementsByTagName("filter").item(0);
    assertEquals(SessionlessFilter.class.getName(), text(filter, "filter-class"));
    assertEquals("true", text(filter, "async-supported"), "async requests need the filter async-supported");

    Set<String> dispatchers = new TreeSet<>();
    NodeList d = doc.getElementsByTagName("dispatcher");
    for (int i = 0; i < d.getLength(); i++) {
      dispatchers.add(d.item(i).getTextContent().trim());
    }
    Set<String> all = new TreeSet<>();
    EnumSet.allOf(DispatcherType.class).forEach(t -> all.add(t.name()));
    assertEquals(all, dispatchers, "the filter is mapped for every dispatcher type");

    Map<String, String> params = new LinkedHashMap<>();
    NodeList p = filter.getElementsByTagName("init-param");
    for (int i = 0; i < p.getLength(); i++) {
      Element e = (Element) p.item(i);
      params.put(text(e, "param-name"), text(e, "param-value"));
    }
    // The key file the README's keyring command makes: encrypted under the named password variable.
    Path keys = dir.resolve("session-keys.jwe");
    Files.writeString(keys, EncryptedJwks.encrypt(KeySet.of(TokenKey.generate("readme", Algorithm.DIR_A256GCM)),
        "correct horse battery".toCharArray(), EncryptedJwks.MIN_WRITE_ITERATIONS));
    params.put("keys.file", keys.toString());
    Map<String, String> env = Map.of(params.get("keys.password-env"), "correct horse battery");

    SessionlessFilterBuilder b = SessionlessFilter.builder();
    try (Keyring keyring = (Keyring) InitParams.apply(params::get, env::get, b, getClass().getClassLoader())) {
      b.build();
      assertEquals(List.of("readme"), keyring.status().keyIds());
    }
  }
}
