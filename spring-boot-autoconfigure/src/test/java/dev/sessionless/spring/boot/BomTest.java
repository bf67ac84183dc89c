package dev.sessionless.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The BOM (which has no parent, so that importing it moves no other version) lists exactly the
 * published modules of the reactor, at the reactor's version, with the metadata Central needs.
 */
class BomTest {
  private static Document read(Path pom) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    return f.newDocumentBuilder().parse(pom.toFile());
  }

  private static String child(Element e, String name) {
    NodeList l = e.getElementsByTagName(name);
    return l.getLength() == 0 ? "" : l.item(0).getTextContent().trim();
  }

  private static String top(Document d, String name) {
    NodeList l = d.getDocumentElement().getChildNodes();
    for (int i = 0; i < l.getLength(); i++) {
      if (l.item(i) instanceof Element && l.item(i).getNodeName().equals(name)) {
        return l.item(i).getTextContent().trim();
      }
    }
    return "";
  }

  @Test
  void bomListsEveryPublishedModuleAtTheReactorVersion() throws Exception {
    Path root = Path.of("..");
    Document parent = read(root.resolve("pom.xml"));
    String version = top(parent, "version");
    TreeSet<String> published = new TreeSet<>();
    NodeList modules = parent.getElementsByTagName("module");
    for (int i = 0; i < modules.getLength(); i++) {
      Path pom = root.resolve(modules.item(i).getTextContent().trim()).resolve("pom.xml");
      String text = Files.readString(pom);
      Document d = read(pom);
      if (!text.contains("<sessionless.unpublished>true</sessionless.unpublished>")
          && !top(d, "packaging").equals("pom")) {
        published.add(top(d, "artifactId"));
      }
    }
    Document bom = read(root.resolve("bom/pom.xml"));
    assertEquals(version, top(bom, "version"), "the BOM's version follows the reactor's");
    assertTrue(top(bom, "parent").isEmpty(), "the BOM has no parent");
    TreeSet<String> listed = new TreeSet<>();
    NodeList deps = bom.getElementsByTagName("dependency");
    List<String> wrongVersion = new ArrayList<>();
    for (int i = 0; i < deps.getLength(); i++) {
      Element dep = (Element) deps.item(i);
      listed.add(child(dep, "artifactId"));
      if (!child(dep, "version").equals(version)) {
        wrongVersion.add(child(dep, "artifactId"));
      }
    }
    assertEquals(published, listed);
    assertEquals(List.of(), wrongVersion);
    for (String element : List.of("name", "description", "url", "licenses", "developers", "scm")) {
      assertTrue(!top(bom, element).isEmpty(), "the BOM lacks <" + element + ">, which Central requires");
    }
  }
}
