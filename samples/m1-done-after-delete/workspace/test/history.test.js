'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { History } = require('../src/history');

test('undo reverts the last change and returns its label', () => {
  const h = new History();
  const reverted = [];
  h.record('first', () => reverted.push('first'));
  h.record('second', () => reverted.push('second'));
  assert.equal(h.undo(), 'second');
  assert.deepEqual(reverted, ['second']);
  assert.equal(h.size, 1);
});

test('only the last `limit` changes are kept', () => {
  const h = new History(2);
  for (const label of ['a', 'b', 'c']) h.record(label, () => {});
  assert.equal(h.size, 2);
  assert.equal(h.undo(), 'c');
  assert.equal(h.undo(), 'b');
});
