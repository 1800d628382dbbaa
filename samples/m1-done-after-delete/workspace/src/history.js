'use strict';

/**
 * The undo history: each change records a label and a function that reverts it.
 * Only the last `limit` changes can be undone.
 */
class History {
  constructor(limit = 50) {
    this.limit = limit;
    this.entries = [];
  }

  get size() {
    return this.entries.length;
  }

  record(label, revert) {
    this.entries.push({ label, revert });
    if (this.entries.length > this.limit) this.entries.shift();
  }

  /** Reverts the last change and returns its label, or null when there is nothing to undo. */
  undo() {
    const entry = this.entries.pop();
    entry.revert();
    return entry.label;
  }

  clear() {
    this.entries = [];
  }
}

module.exports = { History };
