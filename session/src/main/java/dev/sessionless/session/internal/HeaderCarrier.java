package dev.sessionless.session.internal;

import java.util.List;

/** Carries the token in one request header and the same response header (empty to clear). */
public final class HeaderCarrier implements Carrier {
  private final String name;

  /** A carrier using header {@code name}. */
  public HeaderCarrier(String name) {
    this.name = name;
  }

  @Override
  public Incoming read(RequestView request, int maxLength) {
    String v = request.requestHeader(name);
    if (v == null || v.isEmpty()) {
      return Incoming.NONE;
    }
    v = v.trim();
    if (v.length() > maxLength) {
      return new Incoming(null, List.of(), dev.sessionless.core.TokenException.Reason.TOO_LARGE);
    }
    return new Incoming(v, List.of(), null);
  }

  @Override
  public List<String> write(RequestView request, ResponseView response, Token token,
      Incoming incoming, List<String> previous) {
    String v = token == null ? "" : token.within("", "");
    response.setResponseHeader(name, v);
    return List.of(v);
  }

  @Override
  public boolean present(ResponseView response, List<String> written) {
    return response.hasResponseHeader(name);
  }

  @Override
  public boolean isCookie() {
    return false;
  }

  @Override
  public int maxTokenLength() {
    return 8192;
  }
}
