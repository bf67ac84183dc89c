/**
 * What the outgoing-call helpers of {@code dev.sessionless.propagation} and its {@code spring}
 * and {@code okhttp} packages share ({@link dev.sessionless.propagation.internal.Callee}). Not
 * exported by the module: no API.
 */
package dev.sessionless.propagation.internal;
