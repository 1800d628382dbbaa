/**
 * The authoring script still produces the bundled recording: run through today's real
 * loop and tools (whose results it checks against the script's expectations), it gives
 * the same replies with the same call IDs and the same expected conversation shape. Token
 * counts may drift when a tool words its results differently; the replay does not depend
 * on them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { authorTask } from '../../../tools/authoring/author';
import { findTask } from '../../../src/triage/tasks/catalog';
import { loadRecording } from '../../../src/model/recorded-provider';

for (const name of ['m1-done-after-delete', 'cart-unknown-coupon']) {
  test(`${name}: re-authoring gives the bundled recording's replies and expectations`, { timeout: 120_000 }, async () => {
    const task = findTask(name);
    const bundled = await loadRecording(task.recording);
    const fresh = await authorTask(name, { write: false });
    assert.equal(fresh.checks.length, task.checkNames.length);
    assert.ok(fresh.checks.every((c) => c.passed));
    const shape = (r: typeof bundled) => r.turns.map((t) => ({ expect: t.expect, text: t.reply.text, calls: t.reply.calls }));
    assert.deepEqual(
      shape(fresh.recording),
      shape(bundled),
      'the script changed since the recording was authored: run node out/src/triage/authoring/author.js',
    );
    assert.equal(fresh.recording.system, bundled.system);
    assert.equal(fresh.recording.prompt, bundled.prompt);
  });
}
