package dev.sessionless.webflux.internal;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.Compression;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.KeySource;
import dev.sessionless.core.RevocationSource;
import dev.sessionless.core.RevocationStore;
import dev.sessionless.core.SessionlessListener;
import dev.sessionless.core.StateMapper;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.session.internal.AttributeCodec;
import dev.sessionless.session.internal.CookieCarrier;
import dev.sessionless.session.internal.Settings;
import dev.sessionless.session.internal.StateBudget;
import dev.sessionless.webflux.SessionTooLargeException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The WebFlux manager's configuration: the builder's options checked with the servlet filter's
 * defaults and rules, and made into the shared session engine's {@link Settings}.
 */
public final class WebSettings {
  private static final System.Logger LOG = System.getLogger("dev.sessionless.webflux.SessionlessWebSessionManager");
  /** One cookie unless set: what fits the usual 8 KiB request header limits (the servlet filter's reasoning). */
  private static final int DEFAULT_COOKIE_CHUNKS = 1;

  /** The options as the public builder collected them; {@code null} means "not set". */
  public static final class Options {
    /** See the builder's method of the same name. */
    public KeySource keys;
    /** See the builder's method of the same name. */
    public Algorithm algorithm;
    /** See the builder's method of the same name. */
    public Compression compression;
    /** See the builder's method of the same name. */
    public Boolean acceptCompressedSigned;
    /** See the builder's method of the same name. */
    public String issuer;
    /** See the builder's method of the same name. */
    public String audience;
    /** See the builder's method of the same name. */
    public Clock clock;
    /** See the builder's method of the same name. */
    public StateMapper mapper;
    /** See the builder's method {@code attributeTypes}. */
    public final Set<Class<?>> types = new LinkedHashSet<>();
    /** See the builder's method {@code maxInactiveInterval}. */
    public Duration maxInactive;
    /** See the builder's method of the same name. */
    public Duration absoluteLifetime;
    /** See the builder's method of the same name. */
    public Double renewalFraction;
    /** See the builder's method of the same name. */
    public String cookieName;
    /** See the builder's method of the same name. */
    public String cookiePath;
    /** See the builder's method of the same name. */
    public String cookieDomain;
    /** See the builder's method of the same name. */
    public Duration cookieMaxAge;
    /** See the builder's method {@code cookieSameSite}. */
    public String sameSite;
    /** See the builder's method of the same name. */
    public Boolean cookieSecure;
    /** See the builder's method {@code maxCookieChunks}. */
    public Integer maxChunks;
    /** See the builder's method of the same name. */
    public Integer maxStateBytes;
    /** See the builder's method of the same name. */
    public RevocationSource revocation;
    /** See the builder's method of the same name. */
    public SessionlessListener listener;
  }

  /** The engine's settings. */
  final Settings engine;
  final Clock clock;
  final Duration absoluteLifetime;
  /** Where {@code invalidate()} records the session as revoked; {@code null} if nowhere. */
  private final RevocationStore revocations;

  private WebSettings(Settings engine, Clock clock, Duration absoluteLifetime, RevocationStore revocations) {
    this.engine = engine;
    this.clock = clock;
    this.absoluteLifetime = absoluteLifetime;
    this.revocations = revocations;
  }

  /** The revocation store {@code invalidate()} writes to, or {@code null}. */
  public RevocationStore revocations() {
    return revocations;
  }

  /** The clock. */
  public Clock clock() {
    return clock;
  }

  /** The absolute lifetime. */
  public Duration absoluteLifetime() {
    return absoluteLifetime;
  }

  /**
   * Checks {@code o} and makes the settings.
   *
   * @throws IllegalStateException if a required option is missing or options contradict
   * @throws IllegalArgumentException if a value is out of range
   */
  public static WebSettings of(Options o) {
    if (o.keys == null) {
      throw new IllegalStateException("keys are required");
    }
    Clock clock = o.clock == null ? Clock.systemUTC() : o.clock;
    StateMapper mapper = o.mapper == null ? StateMapper.defaults() : o.mapper;
    Duration inactive = lifetime(o.maxInactive, Duration.ofMinutes(30), "maxInactiveInterval");
    Duration absolute = lifetime(o.absoluteLifetime, Duration.ofHours(12), "absoluteLifetime");
    double fraction = o.renewalFraction == null ? 0.5 : o.renewalFraction;
    if (!(fraction > 0 && fraction <= 1)) {
      throw new IllegalArgumentException("renewalFraction must be in (0, 1], got " + fraction);
    }
    int chunks = o.maxChunks == null ? DEFAULT_COOKIE_CHUNKS : o.maxChunks;
    CookieCarrier carrier = CookieOptions.carrier(o, chunks, LOG);
    Algorithm algorithm = algorithm(o, clock);
    TokenCodec.Builder codec = TokenCodec.builder().keys(o.keys).clock(clock).stateMapper(mapper)
        .timeToLive(inactive).maxTokenLength(carrier.maxTokenLength()).algorithm(algorithm);
    SessionlessListener listener = o.listener == null ? SessionlessListener.NONE : o.listener;
    codec.listener(listener);
    if (o.issuer != null) {
      codec.issuer(o.issuer);
    }
    if (o.audience != null) {
      codec.audience(o.audience);
    }
    if (o.revocation != null) {
      codec.revocation(o.revocation);
    }
    Compression compression = o.compression != null ? o.compression
        : o.algorithm == null && algorithm == Algorithm.DIR_A256GCM ? Compression.DEFLATE : null;
    if (compression != null) {
      codec.compression(compression);
    }
    if (o.acceptCompressedSigned != null) {
      codec.acceptCompressedSignedTokens(o.acceptCompressedSigned);
    }
    boolean compressed = compression != null && compression != Compression.NONE;
    long budget;
    String advice;
    if (o.maxStateBytes != null) {
      if (o.maxStateBytes < 1) {
        throw new IllegalArgumentException("maxStateBytes must be positive, got " + o.maxStateBytes);
      }
      budget = o.maxStateBytes;
      advice = "maxStateBytes";
    } else {
      // Token characters besides the state: the JOSE header and IV/tag or signature (about 190)
      // and the other claims (about 264 bytes with issuer and audience), base64url 4/3 longer.
      long overhead = 190 + (264L + length(o.issuer) + length(o.audience)) * 4 / 3;
      budget = Math.max(256, (carrier.maxTokenLength() - overhead) * 3 / 4);
      advice = "what " + (chunks == 1 ? "one cookie" : chunks + " cookies (maxCookieChunks)") + " can carry"
          + (compressed ? ", after compression" : "");
    }
    RevocationStore store = o.revocation instanceof RevocationStore ? (RevocationStore) o.revocation : null;
    Settings engine = new Settings(codec.build(), new AttributeCodec(mapper, o.types), carrier, clock,
        (int) inactive.getSeconds(), absolute.getSeconds(), fraction, false, store, listener,
        new StateBudget(budget, compressed, advice, SessionTooLargeException::new));
    return new WebSettings(engine, clock, absolute, store);
  }

  private static int length(String s) {
    return s == null ? 0 : s.length();
  }

  private static Duration lifetime(Duration set, Duration fallback, String option) {
    Duration d = set == null ? fallback : set;
    if (d.getSeconds() < 1 || d.compareTo(TokenCodec.MAX_TIME_TO_LIVE) > 0) {
      throw new IllegalArgumentException(option + " must be from one second to "
          + TokenCodec.MAX_TIME_TO_LIVE.toDays() + " days, got " + d);
    }
    return d;
  }

  /**
   * The algorithm set, else {@code dir} (A256GCM) when the keys can encrypt with it now; keys
   * that can only sign are refused, naming the one setting that keeps signed tokens.
   */
  private static Algorithm algorithm(Options o, Clock clock) {
    if (o.algorithm != null) {
      if (!o.algorithm.isEncrypting()) {
        LOG.log(System.Logger.Level.INFO, "algorithm " + o.algorithm.joseName() + ": session tokens are"
            + " signed, not encrypted, so anyone holding a copy of the cookie can read the session; leave the"
            + " algorithm unset for dir (A256GCM encryption), the default");
      }
      return o.algorithm;
    }
    KeySet now;
    try {
      now = o.keys.current();
    } catch (RuntimeException e) {
      return Algorithm.DIR_A256GCM; // a source not ready yet: the first exchange tells
    }
    Instant at = clock.instant();
    if (now.signingKey(Algorithm.DIR_A256GCM, at).isPresent()) {
      return Algorithm.DIR_A256GCM;
    }
    List<Algorithm> others = new ArrayList<>();
    for (Algorithm a : Algorithm.values()) {
      if (now.signingKey(a, at).isPresent()) {
        others.add(a);
      }
    }
    if (!others.isEmpty()) {
      throw new IllegalStateException("no algorithm is set, so tokens are dir (A256GCM encryption, the"
          + " default), but the keys hold no A256GCM key that can encrypt now, only keys for "
          + others.stream().map(Algorithm::joseName).toList() + ": add an A256GCM key (keyring init makes"
          + " one by default), or set algorithm(Algorithm." + others.get(0).name() + ") to keep signed tokens");
    }
    return Algorithm.DIR_A256GCM;
  }
}
