/**
 * Spring Boot auto-configuration for Sessionless: the {@code sessionless.*} properties ({@link
 * dev.sessionless.spring.boot.SessionlessProperties}), the keyring and filter beans ({@link
 * dev.sessionless.spring.boot.SessionlessAutoConfiguration}) and the customizer hook.
 */
package dev.sessionless.spring.boot;
