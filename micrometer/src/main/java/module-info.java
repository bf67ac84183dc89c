/**
 * Sessionless Micrometer binding: {@link dev.sessionless.micrometer.SessionlessMetrics}, a
 * {@link dev.sessionless.core.SessionlessListener} that counts into a Micrometer registry, and
 * per-key gauges over a keyring's status.
 */
module dev.sessionless.micrometer {
  requires transitive dev.sessionless.core;
  requires transitive dev.sessionless.keyring;
  requires transitive micrometer.core;

  exports dev.sessionless.micrometer;
}
