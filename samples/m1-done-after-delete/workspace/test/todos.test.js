'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { TodoList } = require('../src/todos');

test('add gives each item a new id', () => {
  const list = new TodoList();
  const a = list.add('Buy milk');
  const b = list.add('Call the plumber');
  assert.equal(a.id, 1);
  assert.equal(b.id, 2);
  assert.deepEqual(list.list().map((i) => i.title), ['Buy milk', 'Call the plumber']);
});

test('add refuses an empty title', () => {
  const list = new TodoList();
  assert.throws(() => list.add('   '), { name: 'UsageError' });
});

test('markDone marks an existing item and reports whether it was done', () => {
  const list = new TodoList();
  const item = list.add('Water the plants');
  assert.equal(list.markDone(item.id), false);
  assert.equal(list.find(item.id).done, true);
  assert.equal(list.markDone(item.id), true);
});

test('reopen undoes done', () => {
  const list = new TodoList();
  const item = list.add('Water the plants');
  list.markDone(item.id);
  list.reopen(item.id);
  assert.equal(list.find(item.id).done, false);
});

test('ids are not reused after a delete', () => {
  const list = new TodoList();
  list.add('one');
  const two = list.add('two');
  list.remove(two.id);
  assert.equal(list.add('three').id, 3);
  assert.throws(() => list.find(two.id), { name: 'UsageError', message: 'no todo #2' });
});

test('rename of a deleted item is a usage error', () => {
  const list = new TodoList();
  const item = list.add('one');
  list.remove(item.id);
  assert.throws(() => list.rename(item.id, 'uno'), { name: 'UsageError' });
});

test('list --open leaves out done items', () => {
  const list = new TodoList();
  const a = list.add('a');
  list.add('b');
  list.markDone(a.id);
  assert.deepEqual(list.list({ open: true }).map((i) => i.title), ['b']);
});
