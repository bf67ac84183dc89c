package dev.sessionless.spring.boot;

import java.util.Locale;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** Matches when {@code sessionless.revocation.type} is set to something other than {@code none}. */
final class RevocationConfigured extends SpringBootCondition {
  /** Used by Spring. */
  public RevocationConfigured() {}

  @Override
  public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
    String type = context.getEnvironment().getProperty("sessionless.revocation.type", "none").trim();
    return type.toLowerCase(Locale.ROOT).equals("none")
        ? ConditionOutcome.noMatch("sessionless.revocation.type is none")
        : ConditionOutcome.match("sessionless.revocation.type is " + type);
  }
}
