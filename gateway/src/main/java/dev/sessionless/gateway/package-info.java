/**
 * Spring Cloud Gateway as the edge of a Sessionless system: the route filter that mints each
 * service's internal token from the edge session, and its auto-configuration.
 */
package dev.sessionless.gateway;
