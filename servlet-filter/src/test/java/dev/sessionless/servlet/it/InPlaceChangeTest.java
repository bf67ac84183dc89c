package dev.sessionless.servlet.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.servlet.SessionlessFilter;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletRegistration;
import java.util.EnumSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A value the application got from {@code getAttribute} and changed in place, without {@code
 * setAttribute}, is saved whichever way the response ends, and a value read and left alone
 * writes nothing: for a record holding a list and a map of lists (whose in-place check compares
 * what the value holds, and serialises it only when that changed), and for JDK list and map
 * attributes. In the container under test ({@link Containers}), over real HTTP.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class InPlaceChangeTest {
  final KeySet keys = KeySet.of(TokenKey.generate("k1", Algorithm.DIR_A256GCM));
  final RecordingStateMapper recording = new RecordingStateMapper();
  Container container;

  @BeforeAll
  void startContainer() {
    container = Container.underTest((classes, ctx) -> {
      FilterRegistration.Dynamic f = ctx.addFilter("sessionless", SessionlessFilter.builder()
          .keys(keys).issuer("https://test.example").audience("it").cookieName("SL")
          .attributeTypes(Basket.class, Basket.Line.class).build());
      f.setAsyncSupported(true);
      f.addMappingForUrlPatterns(EnumSet.allOf(DispatcherType.class), false, "/r/*", "/error");
      ctx.addFilter("recording", SessionlessFilter.builder()
          .keys(keys).issuer("https://test.example").audience("it").cookieName("SLQ")
          .attributeTypes(Basket.class, Basket.Line.class).stateMapper(recording).build())
          .addMappingForUrlPatterns(null, false, "/q/*");
      ServletRegistration.Dynamic basket = ctx.addServlet("basket", new BasketServlet());
      basket.setAsyncSupported(true);
      basket.addMapping("/r/*", "/q/*");
      ctx.addServlet("error", new ErrorServlet()).addMapping("/error");
    });
  }

  @AfterAll
  void stopContainer() {
    if (container != null) {
      container.stop();
    }
  }

  /** A client holding a session whose basket has one line, {@code a x1}. */
  private TestClient withBasket() {
    TestClient c = new TestClient(container);
    TestClient.Reply r = c.get("/r/set?sku=a");
    assertEquals(1, r.setCookie("SL").size(), r.setCookies.toString());
    return c;
  }

  private static String lines(TestClient c) {
    return c.get("/r/read").get("lines");
  }

  private static void assertWritten(TestClient.Reply r) {
    assertEquals(1, r.setCookie("SL").size(), "the change in place is written: " + r.setCookies);
  }

  @Test
  void recordChangedInPlaceBeforeTheWriterIsWritten() {
    TestClient c = withBasket();
    TestClient.Reply r = c.get("/r/add-writer?sku=b");
    assertEquals("ok", r.body);
    assertWritten(r);
    assertEquals("[ax1, bx1]", lines(c));
  }

  @Test
  void recordChangedInPlaceBeforeTheOutputStreamIsWritten() {
    TestClient c = withBasket();
    assertWritten(c.get("/r/add-stream?sku=b"));
    assertEquals("[ax1, bx1]", lines(c));
  }

  @Test
  void recordChangedInPlaceWithNoBodyIsWritten() {
    TestClient c = withBasket();
    assertWritten(c.get("/r/add-silent?sku=b"));
    assertEquals("[ax1, bx1]", lines(c));
  }

  @Test
  void recordChangedInPlaceAfterTheFirstByteButBeforeTheCommitIsWritten() {
    TestClient c = withBasket();
    TestClient.Reply r = c.get("/r/write-then-add?sku=b");
    assertEquals("first ok", r.body);
    assertWritten(r);
    assertEquals("[ax1, bx1]", lines(c));
  }

  @Test
  void recordChangedInPlaceBeforeSendErrorIsWrittenWithTheErrorPage() {
    TestClient c = withBasket();
    TestClient.Reply r = c.get("/r/add-senderror?sku=b");
    assertEquals(409, r.status);
    assertEquals("409", r.get("errorPage"));
    assertWritten(r);
    assertEquals("[ax1, bx1]", lines(c));
  }

  @Test
  void recordChangedInPlaceBeforeARedirectIsWritten() {
    TestClient c = withBasket();
    TestClient.Reply r = c.get("/r/add-redirect?sku=b");
    assertEquals(302, r.status);
    assertWritten(r);
    assertEquals("[ax1, bx1]", lines(c));
  }

  @Test
  void recordChangedInPlaceInAnAsyncRequestIsWritten() {
    TestClient c = withBasket();
    TestClient.Reply r = c.get("/r/add-async?sku=b");
    assertEquals("async", r.body);
    assertWritten(r);
    assertEquals("[ax1, bx1]", lines(c));
  }

  @Test
  void changeBeforeTheCommitIsWrittenAndOneAfterItIsLost() {
    TestClient c = withBasket();
    TestClient.Reply r = c.get("/r/add-flush-add?sku=b");
    assertEquals("flushed committed=true", r.body);
    assertWritten(r);
    assertEquals("[ax1, bx1]", lines(c), "the line added after the commit cannot reach the client");
  }

  @Test
  void readingAndLeavingTheValuesAloneWritesNothing() {
    TestClient c = withBasket();
    for (int i = 0; i < 3; i++) {
      TestClient.Reply r = c.get("/r/read");
      assertEquals("[ax1]", r.get("lines"));
      assertEquals("[t0]", r.get("tags"));
      assertEquals("{p0=v0}", r.get("prefs"));
      assertEquals(0, r.setCookie("SL").size(), "nothing changed: " + r.setCookies);
    }
  }

  @Test
  void readingAfterAChangeInPlaceWritesNothing() {
    TestClient c = withBasket();
    assertWritten(c.get("/r/add-writer?sku=b"));
    TestClient.Reply r = c.get("/r/read");
    assertEquals("[ax1, bx1]", r.get("lines"));
    assertEquals(0, r.setCookie("SL").size(), r.setCookies.toString());
  }

  @Test
  void replacingAnElementWithAnEqualOneWritesNothing() {
    TestClient c = withBasket();
    TestClient.Reply r = c.get("/r/replace-equal");
    assertEquals("ok", r.body);
    assertEquals(0, r.setCookie("SL").size(), "the JSON is the same: " + r.setCookies);
    assertEquals("[ax1]", lines(c));
  }

  @Test
  void replacingAnElementWithAnotherIsWritten() {
    TestClient c = withBasket();
    assertWritten(c.get("/r/bump"));
    assertEquals("[ax2]", lines(c));
    assertWritten(c.get("/r/bump"));
    assertEquals("[ax3]", lines(c));
  }

  @Test
  void reorderingTheElementsIsWritten() {
    TestClient c = withBasket();
    assertWritten(c.get("/r/add-writer?sku=b"));
    assertWritten(c.get("/r/swap"));
    assertEquals("[bx1, ax1]", lines(c));
  }

  @Test
  void changeNestedInAMapInsideTheRecordIsWritten() {
    TestClient c = withBasket();
    assertWritten(c.get("/r/note?key=gift&sku=wrap"));
    assertEquals("{gift=[wrap]}", c.get("/r/read").get("notes"));
    assertWritten(c.get("/r/note?key=gift&sku=card"));
    TestClient.Reply r = c.get("/r/read");
    assertEquals("{gift=[wrap, card]}", r.get("notes"));
    assertEquals(0, r.setCookie("SL").size(), r.setCookies.toString());
  }

  @Test
  void recordAndListChangedInPlaceAfterSetAttributeAreWrittenWithTheChange() {
    TestClient c = withBasket();
    assertWritten(c.get("/r/set-then-change?sku=late"));
    TestClient.Reply r = c.get("/r/read");
    assertTrue(r.get("lines").contains("late"), r.body);
    assertTrue(r.get("lines").contains("set"), r.body);
    assertEquals("[t-set, late]", r.get("tags"), r.body);
  }

  @Test
  void valueSetAndLeftAloneReadsBackAsSet() {
    TestClient c = withBasket();
    assertWritten(c.get("/r/set-unchanged?sku=kept"));
    TestClient.Reply r = c.get("/r/read");
    assertTrue(r.get("lines").contains("kept"), r.body);
    assertTrue(r.setCookie("SL").isEmpty(), r.setCookies.toString());
  }

  @Test
  void jdkListAndMapAttributesChangedInPlaceAreWritten() {
    TestClient c = withBasket();
    assertWritten(c.get("/r/tag?sku=t1"));
    assertWritten(c.get("/r/pref?sku=p1"));
    TestClient.Reply r = c.get("/r/read");
    assertEquals("[t0, t1]", r.get("tags"));
    assertEquals("{p0=v0, p1=on}", r.get("prefs"));
    assertTrue(r.setCookie("SL").isEmpty(), r.setCookies.toString());
  }

  @Test
  void readOnlyRequestReadsTheRecordOnceAndSerialisesNothing() {
    TestClient c = new TestClient(container);
    assertEquals(1, c.get("/q/set?sku=a").setCookie("SLQ").size());
    int writes = recording.writes.get();
    int reads = recording.reads.get();
    TestClient.Reply r = c.get("/q/read");
    assertEquals("[ax1]", r.get("lines"));
    assertEquals(0, r.setCookie("SLQ").size(), r.setCookies.toString());
    assertEquals(0, recording.writes.get() - writes,
        "nothing changed, and the record says so without being serialised (first byte and end of request)");
    assertEquals(3, recording.reads.get() - reads, "the basket, the tags and the prefs, once each");
  }

  @Test
  void recordChangedInPlaceIsSerialisedToBeWritten() {
    TestClient c = new TestClient(container);
    assertEquals(1, c.get("/q/set?sku=a").setCookie("SLQ").size());
    int writes = recording.writes.get();
    TestClient.Reply r = c.get("/q/add-writer?sku=b");
    assertEquals(1, r.setCookie("SLQ").size(), r.setCookies.toString());
    assertTrue(recording.writes.get() - writes >= 1, "the changed basket was serialised");
    assertEquals("[ax1, bx1]", c.get("/q/read").get("lines"));
  }
}
