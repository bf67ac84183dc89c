/**
 * Implementation of the filter: the request and response wrappers, the token-backed session and
 * how it is read from and written to its token, the carriers (cookies, header) and the checked
 * settings. Not exported; no compatibility promise. Classes are public only where the
 * filter's package ({@code dev.sessionless.servlet}) uses them.
 */
package dev.sessionless.servlet.internal;
