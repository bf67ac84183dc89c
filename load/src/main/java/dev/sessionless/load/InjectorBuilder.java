package dev.sessionless.load;

import java.time.Duration;
import java.util.function.Consumer;

/** Options of an {@link Injector}, checked at {@link #build()}. */
public final class InjectorBuilder {
  Duration warmup = Duration.ofSeconds(1);
  int maxInFlight = 1024;
  long maxRequests = 5_000_000;
  Duration lateThreshold = Duration.ofMillis(10);
  Duration drainTimeout = Duration.ofSeconds(5);
  Consumer<String> progress;

  InjectorBuilder() {}

  /** The discarded start of every step (default 1 s); zero measures from the first request. */
  public InjectorBuilder warmup(Duration warmup) {
    this.warmup = warmup;
    return this;
  }

  /** Open model: requests outstanding at once before new ones are dropped (default 1024). */
  public InjectorBuilder maxInFlight(int maxInFlight) {
    this.maxInFlight = maxInFlight;
    return this;
  }

  /** The most requests one step sends, warm-up included (default 5,000,000). */
  public InjectorBuilder maxRequests(long maxRequests) {
    this.maxRequests = maxRequests;
    return this;
  }

  /** Open model: a send this much after its intended time counts as late (default 10 ms). */
  public InjectorBuilder lateThreshold(Duration lateThreshold) {
    this.lateThreshold = lateThreshold;
    return this;
  }

  /** How long a step waits for outstanding replies after its end (default 5 s). */
  public InjectorBuilder drainTimeout(Duration drainTimeout) {
    this.drainTimeout = drainTimeout;
    return this;
  }

  /** Receives a progress line about once a second while a step runs (default none). */
  public InjectorBuilder progress(Consumer<String> progress) {
    this.progress = progress;
    return this;
  }

  /**
   * The injector.
   *
   * @throws LoadException {@link LoadException.Reason#INVALID_INPUT} for a negative duration,
   *     a cap or bound below 1
   */
  public Injector build() {
    if (warmup.isNegative() || lateThreshold.isNegative() || drainTimeout.isNegative()) {
      throw new LoadException(LoadException.Reason.INVALID_INPUT,
          "warm-up, late threshold and drain timeout must not be negative");
    }
    if (maxInFlight < 1 || maxRequests < 1) {
      throw new LoadException(LoadException.Reason.INVALID_INPUT,
          "maxInFlight and maxRequests must be at least 1, got " + maxInFlight + " and " + maxRequests);
    }
    return Injector.of(this);
  }
}
