package dev.sessionless.spring.boot.it;

import jakarta.servlet.http.HttpSession;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** A Boot application without Spring Security keeping an application type in HttpSession. */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration(excludeName = {
    "org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration",
    "org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
    "org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration",
    "org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration",
    "org.springframework.boot.jetty.autoconfigure.servlet.JettyServletWebServerAutoConfiguration"})
@Import(JsonApp.Pages.class)
public class JsonApp {
  /** A session attribute of the application's own type. */
  public record Preference(String displayName, int pageSize) {}

  /** Stores and shows a preference. */
  @RestController
  public static class Pages {
    @GetMapping("/prefer")
    public String prefer(HttpSession session, @RequestParam("name") String name) {
      session.setAttribute("preference", new Preference(name, 20));
      return "ok";
    }

    @GetMapping("/preference")
    public String preference(HttpSession session) {
      Preference p = (Preference) session.getAttribute("preference");
      return p == null ? "none" : p.displayName() + "/" + p.pageSize();
    }
  }
}
