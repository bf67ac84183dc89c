package dev.sessionless.session.internal;

import dev.sessionless.core.TokenException;
import java.util.List;

/**
 * Where the token travels: cookies (the default) or a header. Reads and writes through the
 * adapter's {@link RequestView} and {@link ResponseView}; works on headers in memory only.
 */
public interface Carrier {
  /** What a request carried. */
  final class Incoming {
    static final Incoming NONE = new Incoming(null, List.of(), null);
    /** The token text, or {@code null}; the token is {@code token[start, end)}, a region of a header. */
    final String token;
    /** Where the token starts in {@link #token}. */
    final int start;
    /** Where the token ends in {@link #token}. */
    final int end;
    /** The names of every cookie of ours the request carried, chunks included (none for a header). */
    final List<String> cookies;
    /** A rejection found before decoding (too many or too long chunks), or {@code null}. */
    final TokenException.Reason problem;

    Incoming(String token, List<String> cookies, TokenException.Reason problem) {
      this(token, 0, token == null ? 0 : token.length(), cookies, problem);
    }

    /** A token that is {@code text[start, end)}: not copied out unless it must be verified. */
    Incoming(String text, int start, int end, List<String> cookies, TokenException.Reason problem) {
      this.token = text;
      this.start = start;
      this.end = end;
      this.cookies = List.copyOf(cookies);
      this.problem = problem;
    }

    boolean present() {
      return token != null || problem != null || !cookies.isEmpty();
    }
  }

  /** Reads the token a request carries, refusing more than {@code maxLength} characters. */
  Incoming read(RequestView request, int maxLength);

  /**
   * The token to write, made when the carrier asks for it and inside the text that carries it
   * ({@code TokenCodec.encode(claims, prefix, suffix)}): a cookie's {@code Set-Cookie} value is
   * then the only String holding the token's several hundred characters.
   */
  @FunctionalInterface
  interface Token {
    /** {@code prefix + token + suffix}, the token made once. */
    String within(String prefix, String suffix);
  }

  /**
   * Writes {@code token} (or clears the carrier when {@code null}) onto {@code response},
   * replacing {@code previous}, the headers this carrier wrote earlier in this response.
   *
   * @return the headers written now
   */
  List<String> write(RequestView request, ResponseView response, Token token,
      Incoming incoming, List<String> previous);

  /** Whether the headers written earlier are still on the (uncommitted) response. */
  boolean present(ResponseView response, List<String> written);

  /** Whether this carrier uses cookies. */
  boolean isCookie();

  /** The longest token this carrier can carry. */
  int maxTokenLength();
}
