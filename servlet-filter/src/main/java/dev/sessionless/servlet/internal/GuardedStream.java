package dev.sessionless.servlet.internal;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import java.io.IOException;
import java.nio.ByteBuffer;

/** The container's output stream, with the session written before bytes can commit it. */
final class GuardedStream extends ServletOutputStream {
  private final ServletOutputStream delegate;
  private final SessionResponse response;

  GuardedStream(ServletOutputStream delegate, SessionResponse response) {
    this.delegate = delegate;
    this.response = response;
  }

  @Override
  public void write(int b) throws IOException {
    response.beforeWrite();
    delegate.write(b);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    response.beforeWrite();
    delegate.write(b, off, len);
  }

  /**
   * Servlet 6.1: handed to the container's own (usually copy-free) implementation. Only an
   * application compiled against 6.1 calls it, so the container has it.
   */
  @Override
  public void write(ByteBuffer buffer) throws IOException {
    response.beforeWrite();
    delegate.write(buffer);
  }

  @Override
  public void flush() throws IOException {
    response.save();
    delegate.flush();
  }

  @Override
  public void close() throws IOException {
    response.save();
    delegate.close();
  }

  @Override
  public boolean isReady() {
    return delegate.isReady();
  }

  @Override
  public void setWriteListener(WriteListener listener) {
    delegate.setWriteListener(listener);
  }
}
