package dev.sessionless.keyring.internal;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * Collects a body of at most {@code max} bytes; more (or a larger declared length) cancels the
 * exchange. A cap of 0 discards the body of a response that is not used.
 */
final class LimitedBody implements HttpResponse.BodySubscriber<byte[]> {
  private final int max;
  private final long declared;
  private final CompletableFuture<byte[]> result = new CompletableFuture<>();
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private volatile Flow.Subscription subscription;

  LimitedBody(int max, long declared) {
    this.max = max;
    this.declared = declared;
  }

  @Override
  public CompletionStage<byte[]> getBody() {
    return result;
  }

  @Override
  public void onSubscribe(Flow.Subscription s) {
    subscription = s;
    if (max > 0 && declared > max) {
      s.cancel();
      result.completeExceptionally(new BodyTooLarge());
      return;
    }
    s.request(Long.MAX_VALUE);
  }

  @Override
  public void onNext(List<ByteBuffer> buffers) {
    if (result.isDone()) {
      return;
    }
    for (ByteBuffer b : buffers) {
      int n = b.remaining();
      if (max == 0) {
        b.position(b.limit()); // discarded
        continue;
      }
      if (out.size() + (long) n > max) {
        subscription.cancel();
        result.completeExceptionally(new BodyTooLarge());
        return;
      }
      byte[] chunk = new byte[n];
      b.get(chunk);
      out.write(chunk, 0, n);
    }
  }

  @Override
  public void onError(Throwable t) {
    result.completeExceptionally(t);
  }

  @Override
  public void onComplete() {
    result.complete(out.toByteArray());
  }

  void cancel() {
    Flow.Subscription s = subscription;
    if (s != null) {
      s.cancel();
    }
    result.completeExceptionally(new HttpTimeoutException("cancelled after the read timeout"));
  }
}
