/**
 * Sessionless tokens: {@link dev.sessionless.core.TokenCodec} makes and reads them, {@link
 * dev.sessionless.core.KeySet} holds the keys, {@link dev.sessionless.core.TokenException} says
 * why a token was refused.
 *
 * <p>Null-free: no method here accepts or returns {@code null} unless its documentation says
 * so; absent values are {@link java.util.Optional}.
 */
package dev.sessionless.core;
