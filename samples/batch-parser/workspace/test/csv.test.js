'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { parseCsv, splitLine } = require('../src/csv');

test('splitLine handles quotes and doubled quotes', () => {
  assert.deepEqual(splitLine('a,"b, c","say ""hi"""'), ['a', 'b, c', 'say "hi"']);
});

test('parseCsv keys rows by the header', () => {
  assert.deepEqual(parseCsv('name, qty\nbolt, 12\r\nnut,40'), [
    { name: 'bolt', qty: '12' },
    { name: 'nut', qty: '40' },
  ]);
});
