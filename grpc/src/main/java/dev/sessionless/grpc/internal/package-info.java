/**
 * What the interceptors share and applications need not see: the metadata keys and the
 * listener that binds a verified call's context around each callback. Not exported.
 */
package dev.sessionless.grpc.internal;
