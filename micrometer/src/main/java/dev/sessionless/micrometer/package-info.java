/** Micrometer meters for Sessionless: see {@link dev.sessionless.micrometer.SessionlessMetrics}. */
package dev.sessionless.micrometer;
