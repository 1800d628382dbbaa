/**
 * The bench's tool-result bytes per task (issue 20 item 8): a replay counts one result per
 * call of the recording, and the bundled small task's recording, re-authored with the new
 * tools, puts fewer tool-result bytes into the conversation than its recording before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BYTES_BEFORE, toolResultBytes } from '../../bench/tool-bytes';
import { findTask } from '../../src/triage/tasks/catalog';
import { loadRecording } from '../../src/model/recorded-provider';

test('the cart task: one result per recorded call, and fewer tool-result bytes than before the re-authoring', { timeout: 120_000 }, async () => {
  const task = findTask('cart-unknown-coupon');
  const recording = await loadRecording(task.recording);
  const m = await toolResultBytes(task.name, recording);
  assert.equal(
    m.results,
    recording.turns.reduce((n, t) => n + t.reply.calls.length, 0),
  );
  assert.ok(m.bytes > 0);
  assert.ok(m.bytes < BYTES_BEFORE[task.name], `${m.bytes} B now, ${BYTES_BEFORE[task.name]} B before`);
});
