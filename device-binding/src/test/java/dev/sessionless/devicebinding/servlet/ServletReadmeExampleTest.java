package dev.sessionless.devicebinding.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.sessionless.testing.ReadmeBlocks;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The README's servlet example is the code the loopback tests run ({@link DbscJettyNode}). */
@Timeout(30)
class ServletReadmeExampleTest {
  @Test
  void readmeShowsTheServletWiringTheLoopbackTestsRun() throws IOException {
    Path node = Path.of("src/test/java/dev/sessionless/devicebinding/servlet/DbscJettyNode.java");
    for (String block : List.of("readme-servlet", "readme-login")) {
      List<String> shown = ReadmeBlocks.markdown(Path.of("README.md"), block);
      assertFalse(shown.isEmpty(), "README.md has no " + block + " block");
      assertEquals(ReadmeBlocks.java(node, block), shown, "README.md drifted from DbscJettyNode (" + block + ")");
    }
  }
}
