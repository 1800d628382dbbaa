import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { runTriage } from '../../../src/triage/job';
import { loadRecording, RecordedModel } from '../../../src/model/recorded-provider';
import type { Approver } from '../../../src/agent/approver';
import { tempDir } from '../../support/temp-dir';

const yes: Approver = { approve: async () => 'approve', resolve: async () => ({ answer: 'rerun' }) };

test('recordTo turns a run into a recording that replays the same run', async (t) => {
  const dir = tempDir(t, 'triage-record-');
  const file = path.join(dir, 'run.recording.json');
  const first = await runTriage({ stateDir: path.join(dir, 'a'), task: 'cart-unknown-coupon', approver: yes, recordTo: file });
  assert.equal(first.result.phase, 'done');
  const rec = await loadRecording(file);
  assert.equal(rec.turns.length, first.result.turns);
  const second = await runTriage({ stateDir: path.join(dir, 'b'), task: 'cart-unknown-coupon', approver: yes, model: new RecordedModel(rec) });
  assert.equal(second.result.phase, 'done');
  assert.equal(second.result.answer, first.result.answer);
  assert.ok(
    second.checks?.every((c) => c.passed),
    JSON.stringify(second.checks?.filter((c) => !c.passed)),
  );
});
