package dev.sessionless.servlet.it;

/**
 * The containers a test run uses, named by system properties that each module's surefire
 * configuration sets: {@value #UNDER_TEST} names the {@link ContainerFactory} class the suites
 * run in (the Jetty ee10 one if unset), {@value #PEER} the one that serves as the other kind
 * of node in multi-node tests (the container under test if unset).
 */
public final class Containers {
  /** The system property naming the container under test's factory class. */
  public static final String UNDER_TEST = "sessionless.it.container";
  /** The system property naming the peer container's factory class. */
  public static final String PEER = "sessionless.it.peer-container";

  private Containers() {}

  /** The container the suites run in. */
  public static ContainerFactory underTest() {
    return load(System.getProperty(UNDER_TEST, JettyContainerFactory.class.getName()));
  }

  /** The container that plays the other node in multi-node tests. */
  public static ContainerFactory peer() {
    String peer = System.getProperty(PEER);
    return peer == null ? underTest() : load(peer);
  }

  private static ContainerFactory load(String className) {
    try {
      return (ContainerFactory) Class.forName(className).getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException | ClassCastException e) {
      throw new IllegalStateException("no container factory " + className, e);
    }
  }
}
