'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { parseQuery, formatQuery } = require('../src/query');

test('pairs, plus signs and percent escapes', () => {
  assert.deepEqual(parseQuery('?q=two+words&city=S%C3%A3o%20Paulo'), { q: 'two words', city: 'São Paulo' });
});

test('a repeated key collects an array', () => {
  assert.deepEqual(parseQuery('tag=a&tag=b&tag=c'), { tag: ['a', 'b', 'c'] });
});

test('formatQuery is the reverse', () => {
  assert.equal(formatQuery({ q: 'x y', tag: ['a', 'b'] }), 'q=x%20y&tag=a&tag=b');
});
