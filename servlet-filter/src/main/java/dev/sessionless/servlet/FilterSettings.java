package dev.sessionless.servlet;

import dev.sessionless.session.internal.SessionOptions;
import dev.sessionless.session.internal.Settings;
import dev.sessionless.session.internal.SettingsRules;

/**
 * Hands a builder's options to the session engine's rules ({@link SettingsRules}, shared with
 * the WebFlux adapter), which check them and make the filter's immutable {@link Settings}.
 */
final class FilterSettings {
  private FilterSettings() {}

  /**
   * The settings {@code b} describes.
   *
   * @throws IllegalStateException if a required option is missing or options contradict
   * @throws IllegalArgumentException if a value is out of range
   */
  static Settings of(SessionlessFilterBuilder b) {
    SessionOptions o = new SessionOptions();
    o.keys = b.keys;
    o.algorithm = b.algorithm;
    o.issuer = b.issuer;
    o.audience = b.audience;
    o.clock = b.clock;
    o.mapper = b.mapper;
    o.types.addAll(b.types);
    o.maxInactive = b.maxInactive;
    o.absoluteLifetime = b.absoluteLifetime;
    o.renewalFraction = b.renewalFraction;
    o.cookieName = b.cookieName;
    o.cookiePath = b.cookiePath;
    o.cookieDomain = b.cookieDomain;
    o.cookieMaxAge = b.cookieMaxAge;
    o.sameSite = b.sameSite;
    o.maxChunks = b.maxChunks;
    o.maxStateBytes = b.maxStateBytes;
    o.header = b.header;
    o.newSessionOnBadAttribute = b.badAttribute == SessionlessFilter.BadAttribute.NEW_SESSION;
    o.cookieSecure = b.cookieSecure;
    o.compress = b.compress;
    o.acceptCompressedSigned = b.acceptCompressedSigned;
    o.revocation = b.revocation;
    o.listener = b.listener;
    return SettingsRules.of(o);
  }
}
