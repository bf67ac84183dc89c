/**
 * What the helpers of {@code dev.sessionless.propagation} and its {@code spring}, {@code okhttp}
 * and {@code reactive} packages share: the outgoing callee ({@link
 * dev.sessionless.propagation.internal.Callee}), the receiving filters' decision ({@link
 * dev.sessionless.propagation.internal.Admission}) and answers ({@link
 * dev.sessionless.propagation.internal.Answer}), the attribute names both filters keep their
 * results under ({@link dev.sessionless.propagation.internal.Attributes}), and the published JWKS ({@link
 * dev.sessionless.propagation.internal.JwksDocument}). Not exported by the module: no API.
 */
package dev.sessionless.propagation.internal;
