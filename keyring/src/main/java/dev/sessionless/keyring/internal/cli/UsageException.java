package dev.sessionless.keyring.internal.cli;

/** A command line the tool cannot act on: exit status 2, one line on standard error. */
final class UsageException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  UsageException(String message) {
    super(message, null, false, false);
  }
}
