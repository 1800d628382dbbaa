import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import { createRun, openRun, readRun, runPath } from '../../src/store/files/checkpoint';
import { CheckpointHandle, COMPACT_MIN_BYTES } from '../../src/store/files/checkpoint-handle';
import { SimulatedCrash } from '../../src/sweep/simulated-crash';
import { SavePoint } from '../../src/store/save-points';
import { WritePoint } from '../../src/disk/write-points';
import type { RunState } from '../../src/store/state';
import { StateEdit } from '../../src/store/state-edit';
import { sampleState } from './helpers/fixtures';
import { addTurn, crashAt, journalPath, tempNames } from './helpers/journal';
import { tempDir } from '../support/temp-dir';

const BIG = 300 * 1024;

function snapshotSeq(text: string): number {
  return (JSON.parse(text) as { seq: number }).seq;
}

test('when the journal would outgrow max(1 MiB, the snapshot), the save writes a snapshot and empties the journal', async (t) => {
  const dir = tempDir(t);
  const s = sampleState();
  const h = (await createRun(dir, s)) as CheckpointHandle;
  const edit = new StateEdit(s);
  let saves = 0;
  while (h.stats.compactions === 0) {
    addTurn(edit, ++saves, BIG);
    await h.save(edit, SavePoint.ResultSaved);
  }
  assert.equal(saves, Math.ceil(COMPACT_MIN_BYTES / BIG), 'the first save that would pass 1 MiB compacts');
  assert.equal((await fs.stat(journalPath(dir, s.runId))).size, 0);
  assert.equal(snapshotSeq(await fs.readFile(runPath(dir, s.runId), 'utf8')), saves);
  assert.deepEqual(await readRun(dir, s.runId), s);
  // The next threshold is the snapshot's size, now past 1 MiB.
  const snapshot = (await fs.stat(runPath(dir, s.runId))).size;
  assert.ok(snapshot > COMPACT_MIN_BYTES);
  while (h.stats.compactions === 1) {
    addTurn(edit, ++saves, BIG);
    await h.save(edit, SavePoint.ResultSaved);
  }
  assert.ok(h.stats.appends * BIG >= snapshot - BIG, 'the journal grew to about the snapshot size before the second compaction');
  await h.close();
  assert.deepEqual(await readRun(dir, s.runId), s);
  assert.deepEqual(await tempNames(dir), []);
});

/** Save i of the script: a big turn every third save so compactions happen, a replaced and a shrunk message list now and then. */
function step(s: RunState, i: number): void {
  addTurn(s, i, i % 3 === 0 ? BIG : 200);
  if (i === 5) s.messages[1] = { role: 'assistant', text: 'rewritten' };
  if (i === 8) s.messages.splice(3, 2);
  if (i % 4 === 0) s.attempts = { [`call_${i}`]: { callId: `call_${i}`, tool: 'issue_file', startedAt: '2025-01-02T03:04:05.000Z' } };
  else delete s.attempts;
}
const STEPS = 12;

function withoutTime(s: RunState): Omit<RunState, 'updatedAt'> {
  const { updatedAt: _, ...rest } = s;
  return rest;
}

test('a crash at every point of every save (appends and compactions) leaves the save before or after it, and the run finishes the same', async (t) => {
  const dir = tempDir(t);
  // The clean run: every point passed, and the state after each save.
  const points: string[] = [];
  const clean = sampleState('/tmp/ws', 'clean');
  const states: RunState[] = [];
  const pointsAfter: number[] = [];
  {
    const h = await createRun(dir, clean, { sync: false, crash: (p) => points.push(p) });
    for (let i = 1; i <= STEPS; i++) {
      step(clean, i);
      await h.save(clean, SavePoint.ResultSaved);
      states[i] = structuredClone(clean);
      pointsAfter[i] = points.length;
    }
    await h.close();
  }
  assert.ok(points.includes(WritePoint.TempSynced) && points.slice(2).includes(WritePoint.Renamed), 'the script compacts');
  const first = 2; // points 1 and 2 are createRun's write
  for (let k = first + 1; k <= points.length; k++) {
    const runId = `crash-${k}`;
    const s = sampleState('/tmp/ws', runId);
    let passed = 0;
    const hook = (p: string): void => {
      if (++passed === k) throw new SimulatedCrash(p);
    };
    const h = await createRun(dir, s, { sync: false, crash: hook });
    let crashedIn = 0;
    for (let i = 1; i <= STEPS && crashedIn === 0; i++) {
      step(s, i);
      try {
        await h.save(s, SavePoint.ResultSaved);
      } catch (e) {
        assert.ok(e instanceof SimulatedCrash);
        crashedIn = i;
      }
    }
    await h.close();
    assert.ok(crashedIn > 0, `point ${k} was reached`);
    const point = points[k - 1];
    const durable = point === WritePoint.Renamed || point === WritePoint.JournalAppended;
    const expectSeq = durable ? crashedIn : crashedIn - 1;
    const { handle, state } = await openRun(dir, runId, { sync: false });
    const want = expectSeq === 0 ? withoutTime(sampleState('/tmp/ws', runId)) : withoutTime({ ...states[expectSeq], runId });
    assert.deepEqual(withoutTime(state), want, `crash at point ${k} (${point}) in save ${crashedIn}`);
    assert.deepEqual(await tempNames(dir), [], `openRun removed leftovers (point ${k})`);
    for (let i = expectSeq + 1; i <= STEPS; i++) {
      step(state, i);
      await handle.save(state, SavePoint.ResultSaved);
    }
    await handle.close();
    assert.deepEqual(withoutTime(await readRun(dir, runId)), withoutTime({ ...states[STEPS], runId }), `finished after a crash at point ${k}`);
  }
});

test('a compaction stopped after its rename leaves a stale journal: read correctly, and emptied by the next open', async (t) => {
  const dir = tempDir(t);
  const s = sampleState();
  const crash = crashAt(WritePoint.Renamed, 2); // the first Renamed is createRun's
  const h = await createRun(dir, s, { crash: crash.hook });
  let i = 0;
  await assert.rejects(async () => {
    for (;;) {
      addTurn(s, ++i, BIG);
      await h.save(s, SavePoint.ResultSaved);
    }
  }, SimulatedCrash);
  await h.close();
  const journal = await fs.readFile(journalPath(dir, s.runId));
  assert.ok(journal.length > 0, 'the old records are still there');
  assert.deepEqual(await readRun(dir, s.runId), s, 'the snapshot holds the crashed save, the old records are ignored');
  assert.deepEqual(await fs.readFile(journalPath(dir, s.runId)), journal, 'readRun changed nothing');
  const { handle, state } = await openRun(dir, s.runId);
  assert.deepEqual(state, s);
  assert.equal((await fs.stat(journalPath(dir, s.runId))).size, 0, 'openRun emptied the stale journal');
  addTurn(state, ++i);
  await handle.save(state, SavePoint.ResultSaved);
  await handle.close();
  assert.deepEqual(await readRun(dir, s.runId), state);
});

test('a failed write stops the handle: later saves fail with SaveFailedError, and the run reopens at its last save', async (t) => {
  const dir = tempDir(t);
  const s = sampleState();
  const h = await createRun(dir, s);
  await h.save(s, SavePoint.ResultSaved);
  const saved = structuredClone(s);
  // A state that cannot be encoded is the simplest failure inside a save.
  (s as unknown as { extra: unknown }).extra = {
    toJSON: () => {
      throw new Error('disk full');
    },
  };
  await assert.rejects(h.save(s, SavePoint.ResultSaved), /disk full/);
  delete (s as unknown as { extra?: unknown }).extra;
  await assert.rejects(
    h.save(s, SavePoint.ResultSaved),
    (e: unknown) => (e as Error).name === 'SaveFailedError' && /resume the run/.test((e as Error).message),
  );
  await h.close();
  const { handle, state } = await openRun(dir, s.runId);
  await handle.close();
  assert.deepEqual(state, saved);
});
