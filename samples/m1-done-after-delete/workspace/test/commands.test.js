'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { runSession, newSession, parseLine } = require('../src/commands');

function run(lines) {
  const out = [];
  runSession(lines, newSession(new Date('2025-03-10T09:00:00Z')), (s) => out.push(s));
  return out;
}

test('parseLine splits words and options', () => {
  assert.deepEqual(parseLine('add Buy milk --due tomorrow'), { name: 'add', args: ['Buy', 'milk'], options: { due: 'tomorrow' } });
});

test('a session adds, completes and lists', () => {
  assert.deepEqual(run(['add Buy milk --due 2025-03-14', 'add Call the plumber', 'done 1', 'list']), [
    'added #1 Buy milk (due 2025-03-14)',
    'added #2 Call the plumber',
    'done #1 Buy milk (due 2025-03-14)',
    '[x] #1 Buy milk (due 2025-03-14)\n[ ] #2 Call the plumber',
  ]);
});

test('undo puts a deleted item back', () => {
  assert.deepEqual(run(['add a', 'add b', 'delete 1', 'undo', 'list']), [
    'added #1 a',
    'added #2 b',
    'deleted #1 a',
    'undid delete #1',
    '[ ] #1 a\n[ ] #2 b',
  ]);
});

test('mistakes are reported and the session goes on', () => {
  assert.deepEqual(run(['frobnicate', 'add', 'delete 7', 'add ok']), [
    'todo: unknown command "frobnicate"',
    'todo: a todo needs a title',
    'todo: no todo #7',
    'added #1 ok',
  ]);
});
