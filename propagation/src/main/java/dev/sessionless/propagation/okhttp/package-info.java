/**
 * OkHttp attaching internal tokens and {@code traceparent}: {@link
 * dev.sessionless.propagation.okhttp.InternalTokenInterceptor}. OkHttp is an optional
 * dependency: add {@code com.squareup.okhttp3:okhttp} to use this package.
 */
package dev.sessionless.propagation.okhttp;
