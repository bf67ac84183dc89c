package dev.sessionless.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sessionless.spring.boot.security.SessionlessSecurityContextRepository;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The edge filter's copy of the security package's attribute name (kept as a copy: see PackageDependencyTest). */
@Timeout(30)
class EdgeSubjectFilterTest {
  @Test
  void theEdgeFilterReadsTheLoginWhereTheSecurityRepositoryKeepsIt() {
    assertEquals(SessionlessSecurityContextRepository.ATTRIBUTE, EdgeSubjectFilter.LOGIN_ATTRIBUTE);
  }
}
