package dev.sessionless.devicebinding;

import dev.sessionless.devicebinding.internal.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The draft's "JSON session instructions": the body the registration endpoint answers (and a
 * refresh may), naming the session, its refresh URL, its scope and the cookies it keeps fresh.
 * Members are written in the draft's order; member names are in {@link DbscNames}.
 *
 * <pre>{@code
 * String json = SessionConfiguration.builder("s-1")
 *     .refreshUrl("/dbsc/refresh")
 *     .scope("https://shop.example", false)
 *     .cookie("sl_bound", "Path=/; Secure; HttpOnly; SameSite=Lax")
 *     .toJson();
 * }</pre>
 */
public final class SessionConfiguration {
  private SessionConfiguration() {}

  /** A builder of the instructions for session {@code sessionIdentifier}. */
  public static Builder builder(String sessionIdentifier) {
    return new Builder(Objects.requireNonNull(sessionIdentifier, "sessionIdentifier"));
  }

  /** The instructions that end a session: {@code {"continue":false}}. */
  public static String terminate() {
    ObjectNode root = Json.MAPPER.createObjectNode();
    root.put(DbscNames.CONTINUE, false);
    return Json.MAPPER.writeValueAsString(root);
  }

  /** Builds the JSON session instructions. */
  public static final class Builder {
    private final String sessionIdentifier;
    private String refreshUrl;
    private String origin;
    private Boolean includeSite;
    private final List<String[]> rules = new ArrayList<>();
    private final List<String[]> cookies = new ArrayList<>();
    private final List<String> initiators = new ArrayList<>();

    private Builder(String sessionIdentifier) {
      if (sessionIdentifier.isEmpty()) {
        throw new IllegalArgumentException("the session identifier must not be empty");
      }
      this.sessionIdentifier = sessionIdentifier;
    }

    /** Where refreshes go: a full URL or relative to the registration request; that request's URL if not set. */
    public Builder refreshUrl(String url) {
      this.refreshUrl = Objects.requireNonNull(url, "url");
      return this;
    }

    /**
     * The scope: the origin (or {@code null} for the registration URL's) and whether the whole
     * site is covered ({@code include_site}, allowed only when the origin's host is the
     * registrable domain). Required.
     */
    public Builder scope(String origin, boolean includeSite) {
      this.origin = origin;
      this.includeSite = includeSite;
      return this;
    }

    /** Adds an {@code include} scope rule ({@code domain} a host or {@code *.} pattern, {@code path} a prefix). */
    public Builder include(String domain, String path) {
      rules.add(new String[] {DbscNames.RULE_INCLUDE, domain, path});
      return this;
    }

    /** Adds an {@code exclude} scope rule, e.g. for static files that need no bound cookie. */
    public Builder exclude(String domain, String path) {
      rules.add(new String[] {DbscNames.RULE_EXCLUDE, domain, path});
      return this;
    }

    /**
     * Adds a bound cookie: its name and its attributes as on a {@code Set-Cookie} line ({@code
     * Partitioned} is not allowed by the draft). At least one is required.
     */
    public Builder cookie(String name, String attributes) {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(attributes, "attributes");
      if (name.isEmpty()) {
        throw new IllegalArgumentException("a bound cookie's name must not be empty");
      }
      if (attributes.toLowerCase(java.util.Locale.ROOT).contains("partitioned")) {
        throw new IllegalArgumentException("the draft refuses Partitioned bound cookies: leave the attribute out");
      }
      cookies.add(new String[] {name, attributes});
      return this;
    }

    /** Adds a host pattern outside the scope that may start a refresh ({@code allowed_refresh_initiators}). */
    public Builder allowRefreshFrom(String hostPattern) {
      initiators.add(Objects.requireNonNull(hostPattern, "hostPattern"));
      return this;
    }

    /**
     * The JSON text.
     *
     * @throws IllegalStateException without a scope or a cookie
     */
    public String toJson() {
      if (includeSite == null) {
        throw new IllegalStateException("a scope is required: scope(origin, includeSite)");
      }
      if (cookies.isEmpty()) {
        throw new IllegalStateException("at least one bound cookie is required: cookie(name, attributes)");
      }
      ObjectNode root = Json.MAPPER.createObjectNode();
      root.put(DbscNames.SESSION_IDENTIFIER, sessionIdentifier);
      if (refreshUrl != null) {
        root.put(DbscNames.REFRESH_URL, refreshUrl);
      }
      ObjectNode scope = root.putObject(DbscNames.SCOPE);
      if (origin != null) {
        scope.put(DbscNames.SCOPE_ORIGIN, origin);
      }
      scope.put(DbscNames.SCOPE_INCLUDE_SITE, includeSite);
      if (!rules.isEmpty()) {
        ArrayNode spec = scope.putArray(DbscNames.SCOPE_SPECIFICATION);
        for (String[] r : rules) {
          ObjectNode rule = spec.addObject().put(DbscNames.TYPE, r[0]);
          if (r[1] != null) {
            rule.put(DbscNames.RULE_DOMAIN, r[1]);
          }
          if (r[2] != null) {
            rule.put(DbscNames.RULE_PATH, r[2]);
          }
        }
      }
      ArrayNode credentials = root.putArray(DbscNames.CREDENTIALS);
      for (String[] c : cookies) {
        credentials.addObject().put(DbscNames.TYPE, DbscNames.CREDENTIAL_COOKIE)
            .put(DbscNames.CREDENTIAL_NAME, c[0]).put(DbscNames.CREDENTIAL_ATTRIBUTES, c[1]);
      }
      if (!initiators.isEmpty()) {
        ArrayNode list = root.putArray(DbscNames.ALLOWED_REFRESH_INITIATORS);
        initiators.forEach(list::add);
      }
      return Json.MAPPER.writeValueAsString(root);
    }
  }
}
