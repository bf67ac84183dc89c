package dev.sessionless.servlet.it;

import jakarta.servlet.http.HttpSessionBindingEvent;
import jakarta.servlet.http.HttpSessionBindingListener;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** An attribute value that records binding callbacks. */
public final class BindingProbe implements HttpSessionBindingListener {
  public static final List<String> EVENTS = new CopyOnWriteArrayList<>();
  public String label;

  public BindingProbe() {}

  public BindingProbe(String label) {
    this.label = label;
  }

  @Override
  public void valueBound(HttpSessionBindingEvent event) {
    EVENTS.add("bound:" + event.getName() + ":" + label);
  }

  @Override
  public void valueUnbound(HttpSessionBindingEvent event) {
    EVENTS.add("unbound:" + event.getName() + ":" + label);
  }
}
