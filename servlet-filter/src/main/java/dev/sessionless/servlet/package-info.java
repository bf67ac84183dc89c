/**
 * The token-backed {@code HttpSession} filter: {@link dev.sessionless.servlet.SessionlessFilter}.
 *
 * <p>Parameters and return values are never {@code null} unless documented otherwise.
 */
package dev.sessionless.servlet;
