import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRun, openRun, readRun } from '../../src/store/files/checkpoint';
import type { CheckpointHandle } from '../../src/store/files/checkpoint-handle';
import type { RunHandle } from '../../src/store/run-handle';
import { SavePoint } from '../../src/store/save-points';
import type { RunState } from '../../src/store/state';
import { StateEdit } from '../../src/store/state-edit';
import { sampleState } from './helpers/fixtures';
import { addTurn } from './helpers/journal';
import { tempDir } from '../support/temp-dir';

const SAVES = 20;

/** Bytes written by each of SAVES saves in the loop's pattern (a turn each), on a run that already holds `messages` messages. */
async function bytesPerSave(dir: string, messages: number): Promise<number[]> {
  const s: RunState = sampleState('/tmp/ws', `grow-${messages}`);
  for (let i = 1; s.messages.length < messages; i++) addTurn(s, i, 60);
  await (await createRun(dir, s, { sync: false })).close();
  const { handle, state } = await openRun(dir, s.runId, { sync: false });
  const h = handle as RunHandle as CheckpointHandle;
  const edit = new StateEdit(state);
  const out: number[] = [];
  for (let i = 0; i < SAVES; i++) {
    addTurn(edit, state.turns + 1, 2000);
    await h.save(edit, SavePoint.ResultSaved);
    assert.equal(h.stats.last?.kind, 'append');
    out.push(h.stats.last!.bytes);
  }
  await h.close();
  assert.equal((await readRun(dir, s.runId)).messages.length, state.messages.length);
  return out;
}

test('per-save bytes stay flat: a 100k-message run writes what a 100-message run writes', { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t);
  const small = await bytesPerSave(dir, 100);
  const large = await bytesPerSave(dir, 100_000);
  const max = (a: number[]): number => Math.max(...a);
  // The only differences are longer numbers ("from":100020 against "from":120, turn numbers in the synthetic messages).
  assert.ok(max(large) <= max(small) * 1.02, `100k messages: ${max(large)} bytes per save, 100 messages: ${max(small)}`);
  assert.ok(max(small) < 3000, 'a save writes about its new messages, not the state');
});
