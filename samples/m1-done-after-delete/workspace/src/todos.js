'use strict';

const { UsageError } = require('./errors');
const { parseDue } = require('./dates');

/**
 * An in-memory todo list. Items keep their insertion order; ids are never reused,
 * so a deleted id stays deleted.
 */
class TodoList {
  constructor() {
    this.items = new Map();
    this.nextId = 1;
  }

  get size() {
    return this.items.size;
  }

  /** The item with this id; a UsageError when there is none (never was, or was deleted). */
  find(id) {
    const item = this.items.get(Number(id));
    if (!item) throw new UsageError(`no todo #${id}`);
    return item;
  }

  add(title, options = {}) {
    const text = String(title ?? '').trim();
    if (text === '') throw new UsageError('a todo needs a title');
    const due = options.due === undefined ? null : parseDue(options.due, options.now);
    const item = { id: this.nextId++, title: text, done: false, due };
    this.items.set(item.id, item);
    return item;
  }

  /** Puts a deleted item back where it was (used by undo). */
  restore(item) {
    this.items.set(item.id, item);
    this.items = new Map([...this.items.entries()].sort((a, b) => a[0] - b[0]));
  }

  remove(id) {
    const item = this.find(id);
    this.items.delete(item.id);
    return item;
  }

  markDone(id) {
    const item = this.items.get(Number(id));
    const was = item.done;
    item.done = true;
    return was;
  }

  reopen(id) {
    const item = this.find(id);
    const was = item.done;
    item.done = false;
    return was;
  }

  rename(id, title) {
    const item = this.find(id);
    const text = String(title ?? '').trim();
    if (text === '') throw new UsageError('a todo needs a title');
    const before = item.title;
    item.title = text;
    return before;
  }

  list({ open = false } = {}) {
    const all = [...this.items.values()];
    return open ? all.filter((i) => !i.done) : all;
  }
}

module.exports = { TodoList };
