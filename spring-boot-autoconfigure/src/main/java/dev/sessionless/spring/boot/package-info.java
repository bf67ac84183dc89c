/**
 * Spring Boot auto-configuration for Sessionless: the {@code sessionless.*} properties ({@link
 * dev.sessionless.spring.boot.SessionlessProperties}), the keyring and filter beans ({@link
 * dev.sessionless.spring.boot.SessionlessAutoConfiguration}) and the customizer hook. The
 * factories and filters behind them are package-private classes of this package; {@code
 * dev.sessionless.spring.boot.security} builds on this package, never the reverse.
 */
package dev.sessionless.spring.boot;
