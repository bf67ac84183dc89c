package dev.sessionless.propagation;

import jakarta.servlet.ServletContainerInitializer;

/** The receiving filter's journeys in a real Jetty 12.0 (ee10, Servlet 6.0) on loopback. */
class InternalTokenFilterTest extends InternalTokenFilterJourneys {
  @Override
  LoopbackContainer start(ServletContainerInitializer setup) throws Exception {
    return new LoopbackJetty(context -> context.addServletContainerInitializer(setup));
  }
}
