package dev.sessionless.spring.boot;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.Environment;

/**
 * Boot's own {@code server.servlet.session.*} settings as far as token sessions can honour
 * them, and the names of those set that cannot be.
 */
final class ServerSessionSettings {
  private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of("server.servlet.session");
  /** What maps, by property name (relative to {@code server.servlet.session}). */
  private static final Set<String> MAPPED = Set.of("timeout", "cookie.name", "cookie.domain",
      "cookie.path", "cookie.max-age", "cookie.same-site", "cookie.http-only", "cookie.secure");

  private final Binder binder;
  private final List<String> unmapped;

  private ServerSessionSettings(Binder binder, List<String> unmapped) {
    this.binder = binder;
    this.unmapped = unmapped;
  }

  /** Reads the settings from {@code env}. */
  public static ServerSessionSettings of(Environment env) {
    Binder binder = Binder.get(env);
    Set<String> unmapped = new TreeSet<>();
    for (ConfigurationPropertySource source : ConfigurationPropertySources.get(env)) {
      if (!(source instanceof IterableConfigurationPropertySource)) {
        continue;
      }
      ((IterableConfigurationPropertySource) source).filter(ROOT::isAncestorOf).stream().forEach(name -> {
        String relative = name.subName(ROOT.getNumberOfElements()).toString();
        boolean mapped = MAPPED.contains(relative)
            && !("cookie.http-only".equals(relative) && !binder.bind(name, org.springframework.boot.context.properties.bind.Bindable.of(Boolean.class)).orElse(true));
        if (!mapped) {
          unmapped.add(name.toString());
        }
      });
    }
    return new ServerSessionSettings(binder, List.copyOf(unmapped));
  }

  /** {@code server.servlet.session.timeout}, if set. */
  public Optional<Duration> timeout() {
    return binder.bind("server.servlet.session.timeout", Duration.class).map(Optional::of).orElse(Optional.empty());
  }

  /** {@code server.servlet.session.cookie.NAME} ({@code name}, {@code domain}, {@code path}, {@code same-site}), if set. */
  public Optional<String> cookie(String name) {
    return binder.bind("server.servlet.session.cookie." + name, String.class).map(Optional::of).orElse(Optional.empty());
  }

  /** {@code server.servlet.session.cookie.max-age}, if set. */
  public Optional<Duration> cookieMaxAge() {
    return binder.bind("server.servlet.session.cookie.max-age", Duration.class).map(Optional::of)
        .orElse(Optional.empty());
  }

  /** {@code server.servlet.session.cookie.secure}, if set. */
  public Optional<Boolean> cookieSecure() {
    return binder.bind("server.servlet.session.cookie.secure", Boolean.class).map(Optional::of)
        .orElse(Optional.empty());
  }

  /**
   * The {@code server.servlet.session.*} properties set that token sessions do not honour
   * (tracking modes, persistence, store directory, Partitioned, HttpOnly=false), sorted.
   */
  public List<String> unmapped() {
    return unmapped;
  }
}
