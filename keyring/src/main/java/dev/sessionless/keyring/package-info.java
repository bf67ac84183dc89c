/**
 * Live key sources for Sessionless: {@link dev.sessionless.keyring.KeyringException} says why
 * keys could not be loaded, written or decrypted.
 *
 * <p>Null-free: no method here accepts or returns {@code null} unless its documentation says
 * so; absent values are {@link java.util.Optional}.
 */
package dev.sessionless.keyring;
