/** Implementation details of the Spring Boot integration; not API. */
package dev.sessionless.spring.boot.internal;
