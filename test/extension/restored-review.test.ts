// A Review Changes tab restored empty after a reload is reopened for its run (issue #23 walk).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CHANGED_FILES_TITLE, restoredTab, reviewTitle } from '../../src/extension/logic/restored-review';

const runs = [
  { runId: 'm1-done-after-delete-20261204T031424Z-74lut938', task: 'm1-done-after-delete' },
  { runId: 'm1-done-after-delete-20261204T041424Z-aaaa1111', task: 'm1-done-after-delete' },
];

test("a restored Review Changes tab names its run, with or without the editor's file count", () => {
  const title = reviewTitle(runs[1].runId, runs[1].task);
  assert.equal(title, 'Durable Triage: changes of m1-done-after-delete…aaaa1111 (before the run ↔ now)');
  assert.deepEqual(restoredTab(title, runs), { kind: 'review', runId: runs[1].runId });
  assert.deepEqual(restoredTab(`${reviewTitle(runs[0].runId, runs[0].task)} (6 files)`, runs), { kind: 'review', runId: runs[0].runId });
});

test("a Review Changes of a run no longer here, or a Show Diff of changed files, is closed; others' tabs are left alone", () => {
  assert.deepEqual(restoredTab('Durable Triage: changes of gone…zzzz9999 (before the run ↔ now) (2 files)', runs), { kind: 'review-unknown' });
  assert.deepEqual(restoredTab(`${CHANGED_FILES_TITLE} (2 files)`, runs), { kind: 'changed-files' });
  assert.equal(restoredTab('Changes (3 files)', runs), undefined);
  assert.equal(restoredTab('src/dates.js', runs), undefined);
});
