package dev.sessionless.session.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A response held in memory, as an adapter's {@link ResponseView} shows one. */
final class MapResponse implements ResponseView {
  final Map<String, List<String>> headers = new LinkedHashMap<>();
  boolean committed;

  @Override
  public boolean committed() {
    return committed;
  }

  @Override
  public void addResponseHeader(String name, String value) {
    headers.computeIfAbsent(name.toLowerCase(java.util.Locale.ROOT), n -> new ArrayList<>()).add(value);
  }

  @Override
  public void setResponseHeader(String name, String value) {
    headers.put(name.toLowerCase(java.util.Locale.ROOT), new ArrayList<>(List.of(value)));
  }

  @Override
  public String responseHeader(String name) {
    Collection<String> all = responseHeaders(name);
    return all.isEmpty() ? null : all.iterator().next();
  }

  @Override
  public Collection<String> responseHeaders(String name) {
    return List.copyOf(headers.getOrDefault(name.toLowerCase(java.util.Locale.ROOT), List.of()));
  }

  @Override
  public boolean hasResponseHeader(String name) {
    return !responseHeaders(name).isEmpty();
  }

  /** The {@code Cookie} header a browser sends back after this response: name=value of each live cookie. */
  String cookieHeader() {
    List<String> pairs = new ArrayList<>();
    for (String c : responseHeaders("Set-Cookie")) {
      if (!c.contains("Max-Age=0")) {
        pairs.add(c.substring(0, c.indexOf(';')));
      }
    }
    return String.join("; ", pairs);
  }
}
