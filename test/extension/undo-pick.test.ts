import { test } from 'node:test';
import assert from 'node:assert/strict';
import { undoMark, undoPickOrder, undoStanding } from '../../src/extension/logic/undo-pick';

test('the Undo picker marks a run whose files are all back as before the run', () => {
  assert.equal(undoStanding(['undone', 'undone']), 'undone');
  assert.equal(undoMark(['undone', 'undone']), 'undone already · ');
});

test('a run partly undone (a file put back by hand) says how much', () => {
  assert.equal(undoStanding(['undone', 'as-written']), 'partly-undone');
  assert.equal(undoMark(['undone', 'as-written', 'changed']), '1 of 3 files undone · ');
});

test('a run with nothing undone gets no mark', () => {
  assert.equal(undoMark(['as-written', 'changed', 'missing']), '');
  assert.equal(undoMark([]), '');
});

test('runs undone already come after the runs with something left to undo, the rest kept in order', () => {
  const rows = [
    { id: 'a', s: ['undone'] as const },
    { id: 'b', s: ['as-written'] as const },
    { id: 'c', s: ['undone', 'as-written'] as const },
    { id: 'd', s: ['undone', 'undone'] as const },
  ];
  assert.deepEqual(
    undoPickOrder(rows, (r) => r.s).map((r) => r.id),
    ['b', 'c', 'a', 'd'],
  );
});
