'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { parseDue, formatDue, isOverdue } = require('../src/dates');

const NOW = new Date('2025-03-10T15:30:00Z');

test('parseDue reads YYYY-MM-DD', () => {
  assert.equal(formatDue(parseDue('2025-03-14')), '2025-03-14');
});

test('parseDue reads today and tomorrow', () => {
  assert.equal(formatDue(parseDue('today', NOW)), '2025-03-10');
  assert.equal(formatDue(parseDue('Tomorrow', NOW)), '2025-03-11');
});

test('isOverdue compares whole days', () => {
  assert.equal(isOverdue(parseDue('2025-03-09'), NOW), true);
  assert.equal(isOverdue(parseDue('2025-03-10'), NOW), false);
});
