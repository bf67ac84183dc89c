package dev.sessionless.servlet.internal;

import java.io.PrintWriter;
import java.io.Writer;

/**
 * The container's writer, with the session written before characters can commit it. A
 * {@code PrintWriter} swallows I/O errors, so {@link Printer#checkError()} also asks the
 * container's writer: streaming code (server-sent events, long downloads) relies on it to
 * notice that the client went away.
 */
final class GuardedWriter extends Writer {
  private final PrintWriter delegate;
  private final SessionResponse response;

  private GuardedWriter(PrintWriter delegate, SessionResponse response) {
    this.delegate = delegate;
    this.response = response;
  }

  /** The writer the application gets, over the container's {@code delegate}. */
  static PrintWriter over(PrintWriter delegate, SessionResponse response) {
    return new Printer(new GuardedWriter(delegate, response), delegate);
  }

  @Override
  public void write(char[] cbuf, int off, int len) {
    response.beforeWrite();
    delegate.write(cbuf, off, len);
  }

  @Override
  public void write(String s, int off, int len) {
    response.beforeWrite();
    delegate.write(s, off, len);
  }

  @Override
  public void write(int c) {
    response.beforeWrite();
    delegate.write(c);
  }

  @Override
  public void flush() {
    response.save();
    delegate.flush();
  }

  @Override
  public void close() {
    response.save();
    delegate.close();
  }

  /** A {@code PrintWriter} whose error state includes the container writer's. */
  static final class Printer extends PrintWriter {
    private final PrintWriter container;

    Printer(GuardedWriter guarded, PrintWriter container) {
      super(guarded, false);
      this.container = container;
    }

    /** Flushes (writing the session first) and reports this writer's or the container's error. */
    @Override
    public boolean checkError() {
      boolean own = super.checkError();
      return container.checkError() || own;
    }
  }
}
