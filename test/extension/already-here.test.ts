// Start/Resume on a run open in this window (issue #23 item 13).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HERE_BUTTONS, alreadyHereMessage, deletedRunMessage, deletedRunPanelText } from '../../src/extension/logic/texts';

test('a run waiting for an answer is not called running: its question is offered', () => {
  const w = alreadyHereMessage('run r1 (main)', 'File issue: crash');
  assert.equal(w.message, 'Durable Triage: run r1 (main) is open in this window and waits for your answer: File issue: crash.');
  assert.doesNotMatch(w.message, /already running/);
  assert.deepEqual(w.buttons, [HERE_BUTTONS.open, HERE_BUTTONS.question]);
  const r = alreadyHereMessage('run r1 (main)');
  assert.equal(r.message, 'Durable Triage: run r1 (main) is already running in this window.');
  assert.deepEqual(r.buttons, ['Open Run']);
});

test('a deleted run is told as deleted, in the editor\'s words, not as the CLI\'s "No run … in <folder>. List the runs there with triage status"', () => {
  for (const t of [deletedRunMessage('r1'), deletedRunPanelText('r1')]) {
    assert.match(t, /r1 (no longer exists: it )?was deleted/);
    assert.doesNotMatch(t, /triage status|No run/);
  }
});
