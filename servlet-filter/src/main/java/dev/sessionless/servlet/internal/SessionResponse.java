package dev.sessionless.servlet.internal;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;

/**
 * The response the application sees: before anything that could commit it (the first byte of
 * body, a flush, a redirect, an error, closing the body) the session is written into its
 * headers. Later writes check again, cheaply, so a session changed after the first byte but
 * before the commit is still delivered.
 */
public final class SessionResponse extends HttpServletResponseWrapper {
  private final RequestSession state;
  private HttpServletRequest request;
  private ServletOutputStream out;
  private PrintWriter writer;
  private boolean firstWriteSeen;

  /** Wraps {@code response}. */
  public SessionResponse(HttpServletResponse response, RequestSession state) {
    super(response);
    this.state = state;
  }

  /** The request whose security decides the cookie's Secure attribute. */
  public void request(HttpServletRequest request) {
    this.request = request;
  }

  HttpServletResponse raw() {
    return (HttpServletResponse) getResponse();
  }

  /** Writes the session now if it must be written (looking for in-place changes). */
  public void save() {
    state.checkpoint(request, raw(), true);
  }

  private void beforeWrite() {
    if (!firstWriteSeen) {
      firstWriteSeen = true;
      state.checkpoint(request, raw(), true);
    } else {
      state.checkpoint(request, raw(), false);
    }
  }

  @Override
  public ServletOutputStream getOutputStream() throws IOException {
    ServletOutputStream delegate = super.getOutputStream();
    if (out == null) {
      out = new GuardedStream(delegate);
    }
    return out;
  }

  @Override
  public PrintWriter getWriter() throws IOException {
    PrintWriter delegate = super.getWriter();
    if (writer == null) {
      writer = new PrintWriter(new GuardedWriter(delegate), false);
    }
    return writer;
  }

  @Override
  public void flushBuffer() throws IOException {
    if (writer != null) {
      writer.flush();
    }
    save();
    super.flushBuffer();
  }

  @Override
  public void sendError(int sc, String msg) throws IOException {
    save();
    super.sendError(sc, msg);
  }

  @Override
  public void sendError(int sc) throws IOException {
    save();
    super.sendError(sc);
  }

  @Override
  public void sendRedirect(String location) throws IOException {
    save();
    super.sendRedirect(location);
  }

  @Override
  public void reset() {
    super.reset();
    firstWriteSeen = false;
  }

  @Override
  public String encodeURL(String url) {
    return url;
  }

  @Override
  public String encodeRedirectURL(String url) {
    return url;
  }

  private final class GuardedStream extends ServletOutputStream {
    private final ServletOutputStream delegate;

    GuardedStream(ServletOutputStream delegate) {
      this.delegate = delegate;
    }

    @Override
    public void write(int b) throws IOException {
      beforeWrite();
      delegate.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      beforeWrite();
      delegate.write(b, off, len);
    }

    @Override
    public void flush() throws IOException {
      save();
      delegate.flush();
    }

    @Override
    public void close() throws IOException {
      save();
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

  private final class GuardedWriter extends Writer {
    private final PrintWriter delegate;

    GuardedWriter(PrintWriter delegate) {
      this.delegate = delegate;
    }

    @Override
    public void write(char[] cbuf, int off, int len) {
      beforeWrite();
      delegate.write(cbuf, off, len);
    }

    @Override
    public void write(String s, int off, int len) {
      beforeWrite();
      delegate.write(s, off, len);
    }

    @Override
    public void write(int c) {
      beforeWrite();
      delegate.write(c);
    }

    @Override
    public void flush() {
      save();
      delegate.flush();
    }

    @Override
    public void close() {
      save();
      delegate.close();
    }
  }
}
