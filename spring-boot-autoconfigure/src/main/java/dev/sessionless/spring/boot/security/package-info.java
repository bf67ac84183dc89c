/**
 * Spring Security on token sessions: repositories that keep the security context, the CSRF
 * token and the saved request as plain values, and their auto-configuration.
 */
package dev.sessionless.spring.boot.security;
