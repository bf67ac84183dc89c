/**
 * Implementation of the filter: request and response wrappers, the token-backed session,
 * carriers and configuration parsing. Not exported; no compatibility promise.
 */
package dev.sessionless.servlet.internal;
