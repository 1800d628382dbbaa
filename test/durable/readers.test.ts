import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRun, listRuns, readRun } from '../../src/store/files/checkpoint';
import type { CheckpointHandle } from '../../src/store/files/checkpoint-handle';
import { SavePoint } from '../../src/store/save-points';
import { sampleState } from './helpers/fixtures';
import { addTurn } from './helpers/journal';
import { tempDir } from '../support/temp-dir';

test('readRun and listRuns, without the lock, read a run that is saving and compacting: always a state it saved', { timeout: 120_000 }, async (t) => {
  const dir = tempDir(t);
  const s = sampleState();
  const h = (await createRun(dir, s, { sync: false })) as CheckpointHandle;
  let done = false;
  const seen: number[] = [];
  const reader = (async () => {
    while (!done) {
      const r = await readRun(dir, s.runId);
      assert.equal(r.messages.length, 1 + 2 * r.turns, 'a state some save wrote');
      seen.push(r.turns);
      const [l] = await listRuns(dir);
      assert.equal(l.error, undefined, String(l.error));
    }
  })();
  for (let i = 1; h.stats.compactions < 6; i++) {
    addTurn(s, i, i % 2 ? 120 * 1024 : 300);
    await h.save(s, SavePoint.ResultSaved);
    await new Promise((r) => setImmediate(r));
  }
  done = true;
  await reader;
  await h.close();
  assert.ok(seen.length > 0);
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i] >= seen[i - 1], 'a reader never sees the run go back');
  assert.equal((await readRun(dir, s.runId)).turns, s.turns);
});
