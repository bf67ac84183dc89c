package dev.sessionless.servlet.internal;

import dev.sessionless.session.internal.RequestView;
import dev.sessionless.session.internal.ResponseView;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Collection;

/**
 * The response the application sees: before anything that could commit it the session is
 * written into its headers. The committing paths of Servlet 6.1 are all covered: the first byte
 * of body (stream, writer, and the stream's {@code ByteBuffer} write), a flush, every {@code
 * sendRedirect} overload, {@code sendError}, a content length (set directly or as a header:
 * reaching it commits), and closing the body. Later writes check again, cheaply, so a session
 * changed after the first byte but before the commit is still delivered; a {@code reset()}
 * that drops the headers makes the next write restore the token.
 *
 * <p>Compiled against Servlet 6.1 and run on 6.0 containers too: the 6.1-only methods are only
 * reached when the application (compiled against 6.1) calls them, which it can only do on a 6.1
 * container.
 */
final class SessionResponse extends HttpServletResponseWrapper implements ResponseView {
  private static final String CONTENT_LENGTH = "Content-Length";

  private final RequestSession state;
  private RequestView request;
  private ServletOutputStream out;
  private ServletOutputStream outDelegate;
  private PrintWriter writer;
  private PrintWriter writerDelegate;
  private boolean firstWriteSeen;

  /** Wraps {@code response}. */
  public SessionResponse(HttpServletResponse response, RequestSession state) {
    super(response);
    this.state = state;
  }

  /** The request whose security decides the cookie's Secure attribute. */
  public void request(HttpServletRequest request) {
    this.request = new ServletRequestView(request);
  }

  HttpServletResponse raw() {
    return (HttpServletResponse) getResponse();
  }

  /** Writes the session now if it must be written (looking for in-place changes). */
  public void save() {
    state.checkpoint(request, this, true);
  }

  /**
   * The request is over: writes the session if the response is still open, else reports a
   * change made after it committed.
   */
  public void finish() {
    state.finish(request, this);
  }

  /** Called before every write of body bytes or characters. */
  void beforeWrite() {
    if (!firstWriteSeen) {
      firstWriteSeen = true;
      state.checkpoint(request, this, true);
    } else {
      state.checkpoint(request, this, false);
    }
  }

  @Override
  public ServletOutputStream getOutputStream() throws IOException {
    ServletOutputStream delegate = super.getOutputStream();
    if (out == null || outDelegate != delegate) {
      out = new GuardedStream(delegate, this);
      outDelegate = delegate;
    }
    return out;
  }

  @Override
  public PrintWriter getWriter() throws IOException {
    PrintWriter delegate = super.getWriter();
    if (writer == null || writerDelegate != delegate) {
      writer = GuardedWriter.over(delegate, this);
      writerDelegate = delegate;
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
  public void setContentLength(int len) {
    save();
    super.setContentLength(len);
  }

  @Override
  public void setContentLengthLong(long len) {
    save();
    super.setContentLengthLong(len);
  }

  // Each of the four header setters needs its own override (the wrapper has no common hook);
  // they share beforeHeader.
  private void beforeHeader(String name) {
    if (CONTENT_LENGTH.equalsIgnoreCase(name)) {
      save();
    }
  }

  @Override
  public void setHeader(String name, String value) {
    beforeHeader(name);
    super.setHeader(name, value);
  }

  @Override
  public void addHeader(String name, String value) {
    beforeHeader(name);
    super.addHeader(name, value);
  }

  @Override
  public void setIntHeader(String name, int value) {
    beforeHeader(name);
    super.setIntHeader(name, value);
  }

  @Override
  public void addIntHeader(String name, int value) {
    beforeHeader(name);
    super.addIntHeader(name, value);
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

  /** Servlet 6.1. */
  @Override
  public void sendRedirect(String location, boolean clearBuffer) throws IOException {
    save();
    super.sendRedirect(location, clearBuffer);
  }

  /** Servlet 6.1. */
  @Override
  public void sendRedirect(String location, int sc) throws IOException {
    save();
    super.sendRedirect(location, sc);
  }

  /** Servlet 6.1. */
  @Override
  public void sendRedirect(String location, int sc, boolean clearBuffer) throws IOException {
    save();
    super.sendRedirect(location, sc, clearBuffer);
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

  // The session engine's view of the response: the container's own, not this wrapper's
  // overrides (a Content-Length header set through this wrapper saves the session first).
  @Override
  public boolean committed() {
    return raw().isCommitted();
  }

  @Override
  public void addResponseHeader(String name, String value) {
    raw().addHeader(name, value);
  }

  @Override
  public void setResponseHeader(String name, String value) {
    raw().setHeader(name, value);
  }

  @Override
  public String responseHeader(String name) {
    return raw().getHeader(name);
  }

  @Override
  public Collection<String> responseHeaders(String name) {
    return raw().getHeaders(name);
  }

  @Override
  public boolean hasResponseHeader(String name) {
    return raw().containsHeader(name);
  }
}
