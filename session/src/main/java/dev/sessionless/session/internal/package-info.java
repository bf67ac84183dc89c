/**
 * The session rules both web adapters share: attribute values to and from the token's state
 * ({@link dev.sessionless.session.internal.AttributeCodec} and the parser-free JSON paths), the
 * session metadata in the state ({@link dev.sessionless.session.internal.StoredState}), the
 * state's size budget ({@link dev.sessionless.session.internal.StateBudget}), the {@code Cookie}
 * header parser ({@link dev.sessionless.session.internal.CookieHeaders}) and the log. Exported
 * only to {@code dev.sessionless.servlet} and {@code dev.sessionless.webflux}; no compatibility
 * promise. Types and members are public only where an adapter uses them.
 */
package dev.sessionless.session.internal;
