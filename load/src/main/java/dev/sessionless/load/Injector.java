package dev.sessionless.load;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.HdrHistogram.Recorder;

/**
 * Sends HTTP load over keep-alive connections on loopback, in an open model (fixed arrival
 * rate; latency from the <em>intended</em> send time, as wrk2 does, so a stalled server cannot
 * hide by slowing the client) or a closed model (a fixed number of users, each waiting for its
 * reply). Latencies go into HdrHistogram {@link Recorder}s; every step is bounded in time and in
 * request count, so a run always ends by itself.
 *
 * <p>The injector watches itself: sends that leave late, requests it had to drop and the CPU of
 * its own threads are reported, and a step it could not drive as asked is marked
 * {@linkplain PhaseResult#saturated() saturated} rather than reported as a flattering figure.
 *
 * <p>One step runs at a time; {@link #close()} stops the client's threads.
 */
public final class Injector implements AutoCloseable {
  /** Names of the injector's own threads, for its CPU account. */
  static final String THREAD_PREFIX = "load-injector-";
  /** Seed of user 0's think times; user {@code i} uses this plus {@code i}. */
  static final long THINK_SEED = 0x5E5510_7E55L;

  private final Duration warmup;
  private final int maxInFlight;
  private final long maxRequests;
  private final Duration lateThreshold;
  private final Duration drainTimeout;
  private final Consumer<String> progress;
  private final ExecutorService clientExecutor;
  private final ScheduledExecutorService ticker;
  private final HttpClient client;
  private final AtomicInteger threadCount = new AtomicInteger();

  private Injector(InjectorBuilder b) {
    this.warmup = b.warmup;
    this.maxInFlight = b.maxInFlight;
    this.maxRequests = b.maxRequests;
    this.lateThreshold = b.lateThreshold;
    this.drainTimeout = b.drainTimeout;
    this.progress = b.progress;
    this.clientExecutor = Executors.newFixedThreadPool(2, r -> thread(r, "client"));
    this.ticker = Executors.newSingleThreadScheduledExecutor(r -> thread(r, "progress"));
    this.client = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .executor(clientExecutor)
        .connectTimeout(Duration.ofSeconds(5))
        .build();
  }

  private Thread thread(Runnable r, String role) {
    Thread t = new Thread(r, THREAD_PREFIX + role + "-" + threadCount.incrementAndGet());
    t.setDaemon(true);
    return t;
  }

  /** Makes the injector {@code b} describes; {@link InjectorBuilder#build()} calls it after its checks. */
  static Injector of(InjectorBuilder b) {
    return new Injector(b);
  }

  /** A builder with defaults fit for loopback runs of a few seconds per step. */
  public static InjectorBuilder builder() {
    return new InjectorBuilder();
  }

  /**
   * Runs one open-model step: request {@code i} is due at {@code start + i/rate}, sent then (or
   * as soon after as the injector manages), and its latency counts from when it was due.
   *
   * @param label the step's name in reports and the progress line
   * @param workload the users to draw requests from
   * @param phase the rate and duration
   * @return the measurements, warm-up excluded
   * @throws LoadException {@link LoadException.Reason#INJECTOR_FAILED} when the workload
   *     cannot make a request
   */
  public PhaseResult runOpen(String label, Workload workload, OpenPhase phase) {
    Recorder recorder = new Recorder(3);
    Recorder live = new Recorder(3);
    LongAdder completed = new LongAdder();
    LongAdder errors = new LongAdder();
    AtomicInteger recording = new AtomicInteger();
    long late = 0;
    long dropped = 0;
    Semaphore slots = new Semaphore(maxInFlight);
    Map<Long, Long> inFlight = new ConcurrentHashMap<>();
    ConcurrentLinkedQueue<Workload.VirtualUser> idle = new ConcurrentLinkedQueue<>();
    int users = 0;
    double nanosPerRequest = 1e9 / phase.rate();
    long lateNanos = lateThreshold.toNanos();
    long start = System.nanoTime() + 5_000_000;
    long warmEnd = start + warmup.toNanos();
    long end = start + Math.max(phase.duration().toNanos(), warmup.toNanos() + 1);
    long cpu0 = InjectorWatch.cpuNanos();
    ScheduledFuture<?> line = InjectorWatch.progress(ticker, progress, label, start, live, phase.rate());
    try {
      for (long i = 0; i < maxRequests; i++) {
        long intended = start + (long) (i * nanosPerRequest);
        if (intended >= end) {
          break;
        }
        InjectorWatch.waitUntil(intended);
        long now = System.nanoTime();
        boolean measured = intended >= warmEnd;
        if (now >= end + lateNanos) {
          // so far behind that the step is over: what is still due is never sent
          long due = (long) Math.ceil((end - start) / nanosPerRequest);
          dropped += Math.max(0, Math.min(due, maxRequests) - i);
          break;
        }
        if (measured && now - intended > lateNanos) {
          late++;
        }
        if (!slots.tryAcquire()) {
          if (measured) {
            dropped++;
          }
          continue;
        }
        Workload.VirtualUser user = idle.poll();
        if (user == null) {
          user = workload.newUser(users++);
        }
        Workload.VirtualUser u = user;
        Long key = i;
        inFlight.put(key, intended);
        try {
          client.sendAsync(u.next(), HttpResponse.BodyHandlers.ofString()).whenComplete((response, failure) -> {
            long done = System.nanoTime();
            boolean ok = failure == null && accept(u, response);
            // Counted as recording before the claim, so the drain below never reads the totals
            // between a reply's claim and its count (that race once lost one reply in 400).
            recording.incrementAndGet();
            try {
              if (inFlight.remove(key) != null) {
                long micros = Math.max(0, (done - intended) / 1000);
                live.recordValue(micros);
                if (measured) {
                  recorder.recordValue(micros);
                  completed.increment();
                  if (!ok) {
                    errors.increment();
                  }
                }
              }
            } finally {
              recording.decrementAndGet();
            }
            idle.offer(u);
            slots.release();
          });
        } catch (RuntimeException e) {
          inFlight.remove(key);
          slots.release();
          throw new LoadException(LoadException.Reason.INJECTOR_FAILED,
              "the workload could not make a request: " + e.getMessage(), e);
        }
      }
      // Drain: wait for the replies still due, then count what never came as errors with the
      // latency it had reached, so a hung server cannot vanish from the percentiles.
      long drainEnd = end + drainTimeout.toNanos();
      while (!inFlight.isEmpty() && System.nanoTime() < drainEnd) {
        LockSupport.parkNanos(1_000_000);
      }
      long now = System.nanoTime();
      for (Map.Entry<Long, Long> e : inFlight.entrySet()) {
        if (inFlight.remove(e.getKey()) != null && e.getValue() >= warmEnd) {
          recorder.recordValue(Math.max(0, (now - e.getValue()) / 1000));
          completed.increment();
          errors.increment();
        }
      }
      // A reply that claimed its entry just before the map emptied may still be counting.
      while (recording.get() > 0) {
        Thread.onSpinWait();
      }
    } finally {
      line.cancel(false);
    }
    double seconds = (end - warmEnd) / 1e9;
    double cpu = (InjectorWatch.cpuNanos() - cpu0) / (double) (System.nanoTime() - start);
    List<String> notes = new ArrayList<>();
    long sent = completed.sum();
    long scheduled = sent + dropped;
    if (scheduled > 0 && late > 0.01 * scheduled) {
      notes.add(String.format(Locale.ROOT, "%.1f%% of sends left more than %d ms after their intended"
          + " time: the injector could not keep the schedule (the latencies include that delay)",
          100.0 * late / scheduled, lateThreshold.toMillis()));
    }
    if (dropped > 0) {
      notes.add(dropped + " requests were never sent (the in-flight cap of " + maxInFlight
          + " was reached or the step ran out of time): the figures cover only what was sent");
    }
    boolean saturated = !notes.isEmpty();
    InjectorWatch.cpuNote(cpu, notes);
    return InjectorWatch.result(label, phase.rate(), 0, seconds, completed.sum(), errors.sum(), late, dropped,
        recorder.getIntervalHistogram(), cpu, saturated, notes);
  }

  /**
   * Runs one closed-model step: {@code users} threads, each sending, waiting for the reply and
   * thinking (as the phase's {@link ClosedPhase.Think} says). Latency counts from the actual send:
   * a closed model cannot see what a user that was kept waiting would have sent (use an open step
   * for that). The achieved rate is the requests sent after the warm-up divided by the rest of
   * the step, users that were thinking when it ended included.
   *
   * @param label the step's name in reports and the progress line
   * @param workload the users
   * @param phase users, think time and duration
   * @return the measurements, warm-up excluded
   * @throws LoadException {@link LoadException.Reason#INJECTOR_FAILED} when the workload
   *     cannot make a request
   */
  public PhaseResult runClosed(String label, Workload workload, ClosedPhase phase) {
    Recorder recorder = new Recorder(3);
    Recorder live = new Recorder(3);
    LongAdder completed = new LongAdder();
    LongAdder errors = new LongAdder();
    AtomicLong budget = new AtomicLong(maxRequests);
    AtomicLong lastDone = new AtomicLong(Long.MIN_VALUE);
    long start = System.nanoTime();
    long warmEnd = start + warmup.toNanos();
    long end = start + Math.max(phase.duration().toNanos(), warmup.toNanos() + 1);
    long think = phase.thinkTime().toNanos();
    ClosedPhase.Think pauses = phase.think();
    long cpu0 = InjectorWatch.cpuNanos();
    ScheduledFuture<?> line = InjectorWatch.progress(ticker, progress, label, start, live, Double.NaN);
    List<Thread> threads = new ArrayList<>();
    AtomicReference<RuntimeException> failure = new AtomicReference<>();
    try {
      for (int id = 0; id < phase.users(); id++) {
        Workload.VirtualUser u = workload.newUser(id);
        // Each user its own fixed seed: the same pauses on every run, different between users.
        SplittableRandom random = new SplittableRandom(THINK_SEED + id);
        Thread t = thread(() -> {
          long first = pauses.firstPause(think, random);
          if (first > 0) {
            LockSupport.parkNanos(first);
          }
          while (System.nanoTime() < end && budget.getAndDecrement() > 0 && failure.get() == null) {
            long sent = System.nanoTime();
            boolean ok;
            try {
              ok = accept(u, client.send(u.next(), HttpResponse.BodyHandlers.ofString()));
            } catch (IOException e) {
              ok = false;
            } catch (InterruptedException e) {
              return;
            } catch (RuntimeException e) {
              // the workload could not make its request: the step ends with the failure below
              // instead of a user that silently stops sending and hides what it would have seen
              failure.compareAndSet(null, e);
              return;
            }
            long done = System.nanoTime();
            lastDone.accumulateAndGet(done, Math::max);
            long micros = (done - sent) / 1000;
            live.recordValue(micros);
            if (sent >= warmEnd && sent < end) {
              recorder.recordValue(micros);
              completed.increment();
              if (!ok) {
                errors.increment();
              }
            }
            long pause = pauses.pause(think, random);
            if (pause > 0) {
              LockSupport.parkNanos(pause);
            }
          }
        }, "user");
        threads.add(t);
        t.start();
      }
      long drainEnd = end + drainTimeout.toNanos();
      for (Thread t : threads) {
        long left = drainEnd - System.nanoTime();
        if (left > 0) {
          t.join(Math.max(1, left / 1_000_000));
        }
        if (t.isAlive()) {
          t.interrupt();
          errors.increment(); // a user still waiting for a reply at the bound
        }
      }
      // An interrupted send gives up at once; joined, the users are safe to visit again.
      for (Thread t : threads) {
        t.join(1000);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      threads.forEach(Thread::interrupt);
    } finally {
      line.cancel(false);
    }
    RuntimeException failed = failure.get();
    if (failed != null) {
      throw new LoadException(LoadException.Reason.INJECTOR_FAILED,
          "the workload could not make a request: " + failed.getMessage(), failed);
    }
    // The whole window, users thinking at its end included: the rate is what was sent in it. A
    // step cut short by its request bound is measured up to its last reply instead.
    boolean cutShort = budget.get() < 0;
    long measuredEnd = cutShort ? Math.min(end, lastDone.get()) : end;
    double seconds = (Math.max(warmEnd + 1, measuredEnd) - warmEnd) / 1e9;
    double cpu = (InjectorWatch.cpuNanos() - cpu0) / (double) (System.nanoTime() - start);
    List<String> notes = new ArrayList<>();
    if (cutShort) {
      notes.add("the step hit its request bound of " + maxRequests + " before its time was up");
      if (completed.sum() == 0) {
        notes.add("the bound was used up during the warm-up, so nothing was measured: raise"
            + " maxRequests or shorten the warm-up");
      }
    }
    boolean saturated = InjectorWatch.cpuNote(cpu, notes);
    return InjectorWatch.result(label, Double.NaN, phase.users(), seconds, completed.sum(), errors.sum(), 0, 0,
        recorder.getIntervalHistogram(), cpu, saturated, notes);
  }

  /**
   * Sends each user's next request once more after a step, one user at a time, untimed and
   * outside any result. Each user reads what the step left of its session, so a loss it had no
   * chance to see during the step (it was thinking at the end, or its request hung until then)
   * is still noticed, and a workload that counts losses counts all of them. Call it after the
   * step has returned, never while one runs: a user is called from one thread at a time.
   *
   * @param users users of a finished step
   * @return how many of them got no reply they could accept
   * @throws LoadException {@link LoadException.Reason#INJECTOR_FAILED} when a user cannot make
   *     its request
   */
  public int revisit(List<? extends Workload.VirtualUser> users) {
    int failed = 0;
    for (Workload.VirtualUser u : users) {
      HttpRequest request;
      try {
        request = u.next();
      } catch (RuntimeException e) {
        throw new LoadException(LoadException.Reason.INJECTOR_FAILED,
            "the workload could not make a request: " + e.getMessage(), e);
      }
      try {
        failed += accept(u, client.send(request, HttpResponse.BodyHandlers.ofString())) ? 0 : 1;
      } catch (IOException e) {
        failed++;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new LoadException(LoadException.Reason.INJECTOR_FAILED, "interrupted while revisiting the users", e);
      }
    }
    return failed;
  }

  private static boolean accept(Workload.VirtualUser u, HttpResponse<String> response) {
    try {
      return u.accept(response);
    } catch (RuntimeException e) {
      return false; // a reply the workload cannot read is an error of the system under test
    }
  }

  /** Stops the HTTP client's threads and the progress ticker. */
  @Override
  public void close() {
    ticker.shutdownNow();
    clientExecutor.shutdownNow();
  }
}
