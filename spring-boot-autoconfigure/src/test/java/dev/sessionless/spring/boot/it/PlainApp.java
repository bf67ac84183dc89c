package dev.sessionless.spring.boot.it;

import jakarta.servlet.http.HttpSession;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** A Boot application without Spring Security (excluded), counting visits in HttpSession. */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration(excludeName = {
    "org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration",
    "org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
    "org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration",
    "org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration",
    "org.springframework.boot.jetty.autoconfigure.servlet.JettyServletWebServerAutoConfiguration"})
@Import(PlainApp.Pages.class)
public class PlainApp {
  /** A value of the application's own, not in sessionless.attribute-types unless a test lists it. */
  public record Note(String text) {}

  /** Counts visits. */
  @RestController
  public static class Pages {
    /** Stores a {@link Note}. */
    @GetMapping("/note")
    public String note(HttpSession session) {
      session.setAttribute("note", new Note("hello"));
      return "stored";
    }

    @GetMapping("/count")
    public String count(HttpSession session, @RequestParam(name = "by", defaultValue = "1") int by) {
      Integer n = (Integer) session.getAttribute("n");
      n = n == null ? by : n + by;
      session.setAttribute("n", n);
      return n + ":" + session.getMaxInactiveInterval();
    }
  }
}
