'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { parseDuration, formatDuration } = require('../src/duration');

test('single and combined units', () => {
  assert.equal(parseDuration('45s'), 45000);
  assert.equal(parseDuration('1h30m'), 5400000);
  assert.equal(parseDuration('2d'), 172800000);
  assert.equal(parseDuration('250ms'), 250);
});

test('text that is not a duration is a syntax error', () => {
  assert.throws(() => parseDuration('soon'), SyntaxError);
});

test('formatDuration uses the largest units first', () => {
  assert.equal(formatDuration(5400000), '1h30m');
  assert.equal(formatDuration(0), '0s');
});
