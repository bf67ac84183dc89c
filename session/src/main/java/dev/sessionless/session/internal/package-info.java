/**
 * The token-backed session engine both web adapters share, with no servlet or Spring type: each
 * rule of a Sessionless session exists here once, below the servlet filter and the WebFlux
 * adapter. Exported only to {@code dev.sessionless.servlet} and {@code dev.sessionless.webflux};
 * no compatibility promise.
 *
 * <h2>What it holds</h2>
 *
 * <ul>
 *   <li>{@link dev.sessionless.session.internal.ExchangeSession}: one per request or exchange.
 *       Decodes the incoming token once, on first use (from the {@code Cookie} header values, or
 *       the token header), with the absolute lifetime, the attribute types and the codec's
 *       revocation check; tells the listener and the log of a rejection; renews a token past its
 *       renewal fraction; implements id change, login (subject, {@code auth_time}) and
 *       invalidation; and at each checkpoint writes what the response needs: nothing, the new
 *       {@code Set-Cookie} values (chunked, with the cookie rules and the size budget), or the
 *       clearing ones.
 *   <li>{@link dev.sessionless.session.internal.TokenSession}: the session itself: attributes
 *       through the application's {@code StateMapper} and registered types, their dirty and
 *       in-place change tracking, the state budget, max-inactive, invalidation.
 *   <li>{@link dev.sessionless.session.internal.Settings}: the immutable configuration (codec,
 *       carrier, lifetimes, budget, listener, revocation store), made by {@link
 *       dev.sessionless.session.internal.SettingsRules} from an adapter's {@link
 *       dev.sessionless.session.internal.SessionOptions} (the one place options are checked and
 *       defaulted), and the carriers {@link
 *       dev.sessionless.session.internal.CookieCarrier} and {@link
 *       dev.sessionless.session.internal.HeaderCarrier}.
 * </ul>
 *
 * <h2>What an adapter supplies</h2>
 *
 * {@link dev.sessionless.session.internal.RequestView} (the request headers, context path and
 * security), {@link dev.sessionless.session.internal.ResponseView} (the response headers and
 * whether it has committed) and {@link dev.sessionless.session.internal.SessionHooks} (where a
 * rejection and {@code auth_time} are published, and attribute binding callbacks). It makes one
 * {@code ExchangeSession} per request, calls {@code session(create, response)} when the
 * application asks for its session, {@code checkpoint} before anything that could commit the
 * response (the servlet filter: the first body byte, a flush, a redirect, an error; WebFlux:
 * {@code beforeCommit}) and {@code finish} when the request is over. It shows each {@code
 * TokenSession} as its container's session type and maps an outage ({@link
 * dev.sessionless.session.internal.Outages}) to 503.
 *
 * <h2>Blocking</h2>
 *
 * No method of {@code ExchangeSession} or {@code TokenSession} blocks: the key and revocation
 * sources answer from memory (their contract), and headers are written in memory. Two calls
 * write the revocation store, which may be across the network, and are the caller's to
 * schedule where blocking is allowed (a reactive caller: off the event loop):
 * {@link dev.sessionless.session.internal.LogoutRevocation#write()}, which {@code
 * TokenSession.invalidate()} returns instead of running, and {@code
 * ExchangeSession.logOutEverywhere}. Listeners ({@code SessionlessListener}) are called as they
 * are: one that blocks is the application's choice.
 */
package dev.sessionless.session.internal;
