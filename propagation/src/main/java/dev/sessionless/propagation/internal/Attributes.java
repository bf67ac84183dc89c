package dev.sessionless.propagation.internal;

import dev.sessionless.propagation.CallContext;
import dev.sessionless.propagation.InternalToken;

/**
 * The names under which the receiving filters (servlet and WebFlux) keep the verified token and
 * the call's context as request or exchange attributes. Kept here, apart from both filters, so
 * that reading a name loads neither the Servlet API nor WebFlux. Not exported.
 */
public final class Attributes {
  /** The attribute holding the verified {@link InternalToken}. */
  public static final String TOKEN = InternalToken.class.getName();
  /** The attribute holding the request's or exchange's {@link CallContext}. */
  public static final String CONTEXT = CallContext.class.getName();

  private Attributes() {}
}
