'use strict';

/**
 * A mistake in a command: reported to the user as "todo: <message>", and the session
 * goes on. Anything else that is thrown is a bug.
 */
class UsageError extends Error {
  constructor(message) {
    super(message);
    this.name = 'UsageError';
  }
}

module.exports = { UsageError };
