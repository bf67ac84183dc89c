package dev.sessionless.session.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.RevocationStore;
import dev.sessionless.core.SessionlessListener;
import dev.sessionless.core.StateMapper;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenException;
import dev.sessionless.core.TokenKey;
import dev.sessionless.testing.FakeClock;
import dev.sessionless.testing.ReadmeBlocks;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The engine with no container: an adapter's whole work, over in-memory request and response
 * views. Keeps the README example compiling and true, and pins what the WebFlux adapter relies
 * on: one decode per request, writes only when needed, and the revocation store's write left to
 * the caller.
 */
@Timeout(30)
class ReadmeExampleTest {
  private final FakeClock clock = new FakeClock(Instant.parse("2026-11-28T10:00:00Z"));
  private final RevocationStore store = RevocationStore.inMemory(clock);
  private final List<String> events = new ArrayList<>();
  private final Settings settings = settings();

  /** The adapter's hooks: here, a record of what it was told. */
  private final SessionHooks hooks = new SessionHooks() {
    @Override
    public void rejected(TokenException.Reason reason) {
      events.add("rejected " + reason);
    }

    @Override
    public void authTimeChanged(Instant authTime) {
      events.add("auth_time " + authTime);
    }

    @Override
    public boolean listens(Class<?> type) {
      return false;
    }

    @Override
    public void bound(TokenSession session, String name, Object value) {}

    @Override
    public void unbound(TokenSession session, String name, Object value) {}
  };

  private Settings settings() {
    CookieCarrier carrier = new CookieCarrier("SESSIONLESS", "/", null, -1, "Lax", 1, true);
    TokenCodec codec = TokenCodec.builder().keys(KeySet.of(TokenKey.generate("k1", Algorithm.DIR_A256GCM)))
        .clock(clock).timeToLive(Duration.ofMinutes(30)).maxTokenLength(carrier.maxTokenLength())
        .algorithm(Algorithm.DIR_A256GCM).issuer("https://shop.example").audience("shop").revocation(store).build();
    return new Settings(codec, new AttributeCodec(StateMapper.defaults(), Set.of()), carrier, clock,
        1800, 12 * 3600, 0.5, false, store, SessionlessListener.NONE,
        new StateBudget(2800, false, "one cookie"));
  }

  @Test
  void readmeExampleWritesASessionThatTheNextRequestReads() {
    MapRequest request = MapRequest.none();
    MapResponse response = new MapResponse();
    // readme-example:start
    // One request: the adapter's views of it, the engine, the application's change, the write.
    ExchangeSession engine = new ExchangeSession(settings, request, hooks);
    engine.session(true, response).setAttribute("cart", List.of("mug"));
    engine.checkpoint(request, response, true); // before the response commits: Set-Cookie
    // readme-example:end
    String cookie = response.responseHeader("Set-Cookie");
    assertTrue(cookie.startsWith("SESSIONLESS=") && cookie.endsWith("; Path=/; Secure; HttpOnly; SameSite=Lax"),
        cookie);

    MapRequest next = new MapRequest(List.of("theme=dark; " + response.cookieHeader()));
    MapResponse nextResponse = new MapResponse();
    ExchangeSession second = new ExchangeSession(settings, next, hooks);
    assertEquals(List.of("mug"), second.session(false, nextResponse).attribute("cart"));
    second.checkpoint(next, nextResponse, true);
    second.finish(next, nextResponse);
    assertFalse(nextResponse.hasResponseHeader("Set-Cookie"), "an unchanged session is not written again");
  }

  @Test
  void invalidateLeavesTheRevocationStoreWriteToTheCaller() {
    MapResponse first = new MapResponse();
    ExchangeSession login = new ExchangeSession(settings, MapRequest.none(), hooks);
    login.loggedIn("alice", first);
    login.checkpoint(MapRequest.none(), first, true);
    MapRequest request = new MapRequest(List.of(first.cookieHeader()));
    ExchangeSession engine = new ExchangeSession(settings, request, hooks);
    String id = engine.session(false, null).id();

    LogoutRevocation write = engine.session(false, null).invalidate();
    assertFalse(store.isRevoked(id), "invalidate() itself does not call the store: a reactive caller schedules it");
    write.write();
    assertTrue(store.isRevoked(id));
    MapResponse response = new MapResponse();
    engine.finish(request, response);
    assertTrue(response.responseHeader("Set-Cookie").contains("Max-Age=0"), "the cookie is cleared");
    assertNull(engine.session(false, response));
  }

  @Test
  void theIncomingTokenIsDecodedOncePerRequest() {
    MapResponse first = new MapResponse();
    ExchangeSession login = new ExchangeSession(settings, MapRequest.none(), hooks);
    login.session(true, first).setAttribute("n", 1);
    login.checkpoint(MapRequest.none(), first, true);
    AtomicInteger reads = new AtomicInteger();
    MapRequest counting = new MapRequest(List.of(first.cookieHeader())) {
      @Override
      public java.util.Enumeration<String> requestHeaders(String name) {
        reads.incrementAndGet();
        return super.requestHeaders(name);
      }
    };
    ExchangeSession engine = new ExchangeSession(settings, counting, hooks);
    for (int i = 0; i < 5; i++) {
      assertEquals(1, engine.session(false, null).attribute("n"));
      engine.requestedId();
      engine.authTime();
    }
    assertEquals(1, reads.get(), "the Cookie headers are read, and the token decoded, once");
  }

  @Test
  void aTamperedTokenIsARejectionTheAdapterIsToldOf() {
    MapRequest request = new MapRequest(List.of("SESSIONLESS=not.a.token.at.all"));
    ExchangeSession engine = new ExchangeSession(settings, request, hooks);
    assertNull(engine.session(false, null));
    assertEquals(ExchangeSession.REJECTED_ID, engine.requestedId());
    assertTrue(events.contains("rejected MALFORMED"), events.toString());
  }

  @Test
  void readmeShowsExactlyTheCodeThisTestRuns() throws IOException {
    List<String> tested = ReadmeBlocks.java(
        Path.of("src/test/java/dev/sessionless/session/internal/ReadmeExampleTest.java"), "readme-example");
    List<String> shown = ReadmeBlocks.markdown(Path.of("README.md"), "readme-example");
    assertFalse(shown.isEmpty(), "README.md has no readme-example block");
    assertEquals(tested, shown);
  }
}
