package dev.sessionless.spring.boot.it;

/** Picks the embedded container: both Tomcat 11 and Jetty 12.1 are on the test class path. */
public final class Containers {
  private Containers() {}

  /** The property that leaves only {@code container} ("tomcat" or "jetty") to Boot. */
  public static String only(String container) {
    String other = container.equals("tomcat")
        ? "org.springframework.boot.jetty.autoconfigure.servlet.JettyServletWebServerAutoConfiguration"
        : "org.springframework.boot.tomcat.autoconfigure.servlet.TomcatServletWebServerAutoConfiguration";
    return "spring.autoconfigure.exclude=" + other;
  }
}
