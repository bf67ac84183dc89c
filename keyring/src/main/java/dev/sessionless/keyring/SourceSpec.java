package dev.sessionless.keyring;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.KeyringException.Reason;
import dev.sessionless.keyring.internal.FixedSource;
import dev.sessionless.keyring.internal.HttpSource;
import dev.sessionless.keyring.internal.KeyContent;
import dev.sessionless.keyring.internal.Source;
import dev.sessionless.keyring.internal.VerifyOnly;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * One source added to a {@link KeyringBuilder}: how to make it at {@code build()}, how far it is
 * trusted, and the checks {@code build()} makes of it; with the factories of the sources that take
 * more than a constructor call (environment variables, the ephemeral development key). Separate
 * from the builder so that the public class holds its documented options, not how sources are made.
 */
final class SourceSpec {
  private static final System.Logger LOG = System.getLogger(Keyring.class.getName());

  /** Makes a fresh source from the builder's options as they stand at {@code build()}. */
  private final Function<KeyringBuilder, Source> factory;
  /** The builder call that added it, for messages. */
  private final String what;
  private final URI url; // HTTP sources only
  boolean verifyOnly;
  boolean acceptSecretKeys;

  SourceSpec(Function<KeyringBuilder, Source> make, String what, URI url) {
    this.factory = make;
    this.what = what;
    this.url = url;
    this.verifyOnly = url != null;
  }

  /**
   * What {@code build()} checks of the sources as a whole, then of each one.
   *
   * @throws KeyringException {@code CONFIGURATION} without sources, for an ephemeral key beside
   *     others, for HTTP options ({@code optionsSet} names those set) without an HTTP source, and
   *     for a source configured against the rules
   */
  static void validateAll(List<SourceSpec> sources, boolean ephemeral, boolean anyHttp, Set<String> optionsSet,
      boolean allowPlainHttp) {
    if (sources.isEmpty()) {
      throw new KeyringException(Reason.CONFIGURATION, "no key source is configured: add jwksFile, "
          + "environment, jwksUrl, pemFile or keys — or ephemeralDevelopmentKey() for development on one node");
    }
    if (ephemeral && sources.size() > 1) {
      throw new KeyringException(Reason.CONFIGURATION,
          "ephemeralDevelopmentKey() is for development without other sources");
    }
    for (String option : optionsSet) {
      if (!anyHttp && option.startsWith("http")) {
        throw new KeyringException(Reason.CONFIGURATION, option + " is set but no jwksUrl is configured");
      }
    }
    for (SourceSpec spec : sources) {
      spec.validate(ephemeral, allowPlainHttp);
    }
  }

  /**
   * What {@code build()} checks of this source, given the builder's {@code ephemeralDevelopmentKey()}
   * and {@code httpAllowInsecurePlainHttp} settings; warns of plain http to a host that is not a
   * loopback address.
   *
   * @throws KeyringException {@code CONFIGURATION} when the source is configured against the rules
   */
  private void validate(boolean ephemeral, boolean allowPlainHttp) {
    if (acceptSecretKeys && !verifyOnly) {
      throw new KeyringException(Reason.CONFIGURATION, "acceptSecretKeys() follows " + what
          + ", which is not verify-only: local sources take secret keys anyway; add verifyOnly() before it");
    }
    if (ephemeral && verifyOnly) {
      throw new KeyringException(Reason.CONFIGURATION, "an ephemeral development key cannot be verify-only");
    }
    if (url != null && url.getScheme().equalsIgnoreCase("http")) {
      if (!allowPlainHttp) {
        throw new KeyringException(Reason.CONFIGURATION, "the JWKS URL " + HttpSource.redact(url)
            + " is plain http: anyone on the network path could replace its keys and forge tokens. Use https, "
            + "or (loopback, tests, an encrypted sidecar) httpAllowInsecurePlainHttp(true)");
      }
      if (!HttpSource.isLoopback(url)) {
        LOG.log(Level.WARNING, "the JWKS URL {0} is fetched over INSECURE plain http from a host that is not "
            + "a loopback address: anyone on the network path can replace its keys", HttpSource.redact(url));
      }
    }
  }

  /** A fresh source, made verify-only if so configured: each {@code build()} makes sources of its own. */
  Source make(KeyringBuilder builder) {
    Source source = factory.apply(builder);
    if (verifyOnly) {
      source.verifyOnly(new VerifyOnly(acceptSecretKeys));
    }
    return source;
  }

  /**
   * A JWKS URL source.
   *
   * @throws IllegalArgumentException unless the URL is {@code https} (or {@code http}) with a host
   */
  static SourceSpec http(URI url) {
    Objects.requireNonNull(url, "url");
    String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("https") && !scheme.equals("http") || url.getHost() == null) {
      throw new IllegalArgumentException("a JWKS URL must be https (or, where allowed, http) with a host");
    }
    return new SourceSpec(b -> new HttpSource(url, b.http), "jwksUrl", url);
  }

  /** Keys from an environment variable, and its password from another one if named. */
  static Source environment(String variable, String passwordVariable, Function<String, String> env) {
    String what = "environment variable " + variable;
    return new FixedSource(what, () -> {
      String value = env.apply(variable);
      if (value == null) {
        throw new KeyringException(Reason.UNAVAILABLE, what + " is not set");
      }
      KeyContent.Unlock unlock = KeyContent.Unlock.none();
      if (passwordVariable != null) {
        String password = env.apply(passwordVariable);
        if (password == null) {
          throw new KeyringException(Reason.UNAVAILABLE, "environment variable " + passwordVariable + " is not set");
        }
        unlock = KeyContent.Unlock.password(password.toCharArray());
      }
      return KeyContent.parse(value, unlock, true, what);
    });
  }

  /**
   * Random keys made in memory when first loaded, with a warning that they are ephemeral: one
   * A256GCM key (the servlet filter's default algorithm, {@code dir}) and one HS256 key, each its
   * own random secret, so either algorithm works without configuration.
   */
  static Source ephemeralKey() {
    return new FixedSource("ephemeral development key", () -> {
      LOG.log(Level.WARNING, "*** Sessionless is using an EPHEMERAL key made in memory: "
          + "sessions will not survive a restart and will not verify on any other node. "
          + "Configure a key source for anything but development. ***");
      String suffix = Long.toHexString(System.nanoTime());
      return KeySet.of(TokenKey.generate("ephemeral-a256gcm-" + suffix, Algorithm.DIR_A256GCM),
          TokenKey.generate("ephemeral-" + suffix, Algorithm.HS256));
    });
  }
}
