package dev.sessionless.servlet.it;

import dev.sessionless.core.StateMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.Type;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The default {@link StateMapper}, counting how often values are serialised and read, so a test
 * can tell which requests did the work.
 */
final class RecordingStateMapper implements StateMapper {
  private final StateMapper delegate = StateMapper.defaults();
  final AtomicInteger writes = new AtomicInteger();
  final AtomicInteger reads = new AtomicInteger();

  @Override
  public byte[] write(Object value) {
    writes.incrementAndGet();
    return delegate.write(value);
  }

  @Override
  public void writeTo(Object value, OutputStream out) throws IOException {
    writes.incrementAndGet();
    delegate.writeTo(value, out);
  }

  @Override
  public Object read(byte[] json, int off, int len, Type type) {
    reads.incrementAndGet();
    return delegate.read(json, off, len, type);
  }

  @Override
  public boolean readsPlainly(Class<?> type) {
    return delegate.readsPlainly(type);
  }

  @Override
  public ReadLimits readLimits() {
    return delegate.readLimits();
  }

  @Override
  public void checkTypes(Set<Class<?>> types) {
    delegate.checkTypes(types);
  }
}
