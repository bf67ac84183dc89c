package dev.sessionless.session.internal;

import dev.sessionless.core.Claims;
import dev.sessionless.core.SessionToken;
import dev.sessionless.core.internal.RawJson;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.Map;

/**
 * The claims of a session's next token: the write half of {@link ExchangeSession}.
 *
 * <p>Built here rather than from {@code token.toClaims()}: the state is exactly the session's
 * entries plus the metadata, so nothing the token carried is copied only to be replaced. Every
 * value goes to the writer as a byte range (the incoming token's own bytes for a value never
 * read), never as a String.
 */
final class NextClaims {
  private NextClaims() {}

  /**
   * The claims for {@code s}'s next token, living {@code ttlSeconds}.
   *
   * @param carry the incoming token whose subject and other claims carry over, or {@code null}
   *     (none, or its session ended in this request)
   * @param loginSubject the subject of a login in this request, or {@code null}
   * @param authTimeMillis when a login in this request authenticated, or negative if none did
   */
  static Claims of(Settings settings, TokenSession s, SessionToken carry, String loginSubject,
      long authTimeMillis, long ttlSeconds) {
    // Values never read in this request are copied forward from the token: first make sure
    // each still reads back, so a renewal does not carry a broken value on to the next token.
    for (Iterator<Map.Entry<String, AttributeEntry>> it = s.entries.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, AttributeEntry> e = it.next();
      if (!e.getValue().loaded && !s.read(e.getKey(), e.getValue())) {
        IncomingSession.dropped(settings, e.getKey(), e.getValue());
        it.remove();
      }
    }
    Claims.Builder b = Claims.builder().sessionId(s.id).timeToLive(Duration.ofSeconds(ttlSeconds));
    if (carry != null) {
      carry.subject().ifPresent(b::subject);
      for (String name : carry.claimNames()) {
        b.claim(name, new RawJson(carry.claimJson(name).orElseThrow()));
      }
    }
    if (loginSubject != null) {
      b.subject(loginSubject);
    }
    if (authTimeMillis >= 0) {
      b.authTime(Instant.ofEpochMilli(authTimeMillis));
    }
    for (Map.Entry<String, AttributeEntry> e : s.entries.entrySet()) {
      b.put(e.getKey(), s.jsonToWrite(e.getValue()));
    }
    AttributeCodec attributes = settings.attributes;
    byte[] meta = StoredState.metaBytes(s.created, s.maxInactive, s.entries, entry -> attributes.tag(entry.type));
    b.put(StoredState.META, new RawJson(meta, 0, meta.length));
    return b.build();
  }
}
