package dev.sessionless.servlet.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.servlet.SessionlessFilter;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * An async application using one session from two threads at once (Servlet 6.0, 7.7.1: session
 * objects must be thread-safe), with real threads and a bounded loop, over real HTTP.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SessionThreadSafetyTest {
  static final int ROUNDS = 3000;
  final KeySet keys = KeySet.of(TokenKey.generate("k1", Algorithm.DIR_A256GCM));
  Container container;


  /** Starts async work on two threads that set, read, list and remove attributes of one session. */
  static final class TwoThreadsServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) {
      HttpSession session = req.getSession();
      AsyncContext ac = req.startAsync();
      ac.start(() -> {
        ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (String who : List.of("t1", "t2")) {
          threads.add(new Thread(() -> {
            try {
              go.await();
              for (int i = 0; i < ROUNDS; i++) {
                session.setAttribute(who + "-" + i, i);
                Object back = session.getAttribute(who + "-" + i);
                if (!Integer.valueOf(i).equals(back)) {
                  errors.add(who + " read " + back + " for " + i);
                }
                Collections.list(session.getAttributeNames());
                if (i > 0) {
                  session.removeAttribute(who + "-" + (i - 1));
                }
              }
            } catch (RuntimeException | InterruptedException | Error e) {
              errors.add(who + " " + e);
            }
          }, "session-user-" + who));
        }
        threads.forEach(Thread::start);
        go.countDown();
        try {
          for (Thread t : threads) {
            t.join();
          }
          List<String> names = Collections.list(session.getAttributeNames());
          Collections.sort(names);
          ac.getResponse().setContentType("text/plain;charset=UTF-8");
          ac.getResponse().getWriter().println("errors=" + errors);
          ac.getResponse().getWriter().println("names=" + names);
        } catch (InterruptedException | IOException e) {
          throw new IllegalStateException(e);
        }
        ac.complete();
      });
    }
  }

  @BeforeAll
  void startContainer() {
    container = Container.underTest((classes, ctx) -> {
      var f = ctx.addFilter("sessionless", SessionlessFilter.builder().keys(keys).issuer("i").audience("a")
          .cookieName("ST").build());
      f.setAsyncSupported(true);
      f.addMappingForUrlPatterns(EnumSet.allOf(DispatcherType.class), false, "/s/*");
      var two = ctx.addServlet("two", new TwoThreadsServlet());
      two.setAsyncSupported(true);
      two.addMapping("/s/two");
      ctx.addServlet("app", new AppServlet()).addMapping("/s/*");
    });
  }

  @AfterAll
  void stopContainer() {
    if (container != null) {
      container.stop();
    }
  }

  @Test
  void sessionUsedFromTwoThreadsLosesNothingAndThrowsNothing() {
    TestClient c = new TestClient(container);
    TestClient.Reply r = c.get("/s/two");
    assertEquals(200, r.status, r.body);
    assertEquals("[]", r.get("errors"));
    String last = String.valueOf(ROUNDS - 1);
    assertEquals("[t1-" + last + ", t2-" + last + "]", r.get("names"));
    TestClient.Reply read = c.get("/s/read");
    assertEquals("[t1-" + last + ", t2-" + last + "]", read.get("names"));
    assertEquals(last + ":Integer", read.get("attr.t2-" + last));
  }
}
