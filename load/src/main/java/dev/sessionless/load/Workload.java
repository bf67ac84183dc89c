package dev.sessionless.load;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/**
 * What the injector sends: a population of virtual users, each making its next request and
 * judging the reply. Routing (which node a request goes to) is the workload's choice, so a
 * workload can be round-robin or sticky per user.
 *
 * <p>The injector calls one user from one thread at a time; different users are called
 * concurrently, so a workload's shared state must be thread-safe.
 */
public interface Workload {
  /**
   * A new virtual user with an empty cookie jar.
   *
   * @param id a number unique within one phase
   * @return the user
   */
  VirtualUser newUser(int id);

  /** One simulated user: a cookie jar and a place in a journey. */
  interface VirtualUser {
    /** The user's next request. */
    HttpRequest next();

    /**
     * Takes the reply to the request {@link #next()} returned last.
     *
     * @param response the reply
     * @return whether it is a success; a failure counts as an error
     */
    boolean accept(HttpResponse<String> response);
  }
}
