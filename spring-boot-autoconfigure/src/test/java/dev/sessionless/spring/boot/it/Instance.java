package dev.sessionless.spring.boot.it;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/** One running Boot application on a free loopback port. */
public final class Instance implements AutoCloseable {
  public final ConfigurableApplicationContext context;
  public final int port;

  private Instance(ConfigurableApplicationContext context) {
    this.context = context;
    this.port = Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
  }

  /** Starts {@code app} with these properties (plus port 0, loopback, quiet logging). */
  public static Instance start(Class<?> app, String... properties) {
    List<String> all = new ArrayList<>(List.of("server.port=0", "server.address=127.0.0.1",
        "logging.level.root=WARN", "spring.main.banner-mode=off"));
    all.addAll(List.of(properties));
    return new Instance(new SpringApplicationBuilder(app).properties(all.toArray(new String[0])).run());
  }

  public URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  @Override
  public void close() {
    context.close();
  }
}
