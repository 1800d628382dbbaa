import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { createRun, openRun, readRun, runPath } from '../../src/durable/checkpoint';
import { SimulatedCrash } from '../../src/durable/errors';
import { SavePoint, WritePoint } from '../../src/durable/savepoints';
import { sampleState, tempDir } from './helpers/fixtures';

function crashAt(point: WritePoint): { hook: (p: string) => void; thrown: SimulatedCrash[] } {
  const thrown: SimulatedCrash[] = [];
  return {
    thrown,
    hook: (p) => {
      if (p === point) {
        const e = new SimulatedCrash(p);
        thrown.push(e);
        throw e;
      }
    },
  };
}

async function tempFiles(dir: string): Promise<string[]> {
  return (await fs.readdir(path.join(dir, 'runs'))).filter((n) => n.endsWith('.tmp'));
}

for (const sync of [true, false]) {
  test(`a crash after the temp file is synced leaves the old checkpoint loadable (sync ${sync})`, async (t) => {
    const dir = await tempDir(t);
    const s = sampleState();
    await (await createRun(dir, s, { sync })).close();
    const crash = crashAt(WritePoint.TempSynced);
    const { handle, state } = await openRun(dir, s.runId, { sync, crash: crash.hook });
    state.turns = 5;
    await assert.rejects(handle.save(state, SavePoint.ReplyArrived), (e) => e === crash.thrown[0]);
    await handle.close(); // abandon, as the crash would
    assert.equal((await readRun(dir, s.runId)).turns, 0);
    assert.equal((await tempFiles(dir)).length, 1, 'the crash left its temp file, as a real one would');
    const again = await openRun(dir, s.runId, { sync });
    assert.equal(again.state.turns, 0);
    assert.deepEqual(await tempFiles(dir), [], 'the next open removed the leftover temp file');
    again.state.turns = 6;
    await again.handle.save(again.state, SavePoint.ReplyArrived);
    await again.handle.close();
    assert.equal((await readRun(dir, s.runId)).turns, 6);
  });
}

test('a crash after the rename leaves the new checkpoint', async (t) => {
  const dir = await tempDir(t);
  const s = sampleState();
  await (await createRun(dir, s)).close();
  const crash = crashAt(WritePoint.Renamed);
  const { handle, state } = await openRun(dir, s.runId, { crash: crash.hook });
  state.turns = 7;
  await assert.rejects(handle.save(state, SavePoint.ResultSaved), (e) => e === crash.thrown[0]);
  await handle.close();
  assert.equal((await readRun(dir, s.runId)).turns, 7);
  assert.deepEqual(await tempFiles(dir), []);
});

test('every write passes both crash points, in order', async (t) => {
  const dir = await tempDir(t);
  const points: string[] = [];
  const s = sampleState();
  const h = await createRun(dir, s, { crash: (p) => points.push(p) });
  await h.save(s, SavePoint.RunStarted);
  await h.close();
  assert.deepEqual(points, [WritePoint.TempSynced, WritePoint.Renamed, WritePoint.TempSynced, WritePoint.Renamed]);
});

test('concurrent saves are written one at a time, in call order', async (t) => {
  const dir = await tempDir(t);
  const points: string[] = [];
  const s = sampleState();
  const h = await createRun(dir, s, { sync: false });
  await h.close();
  const { handle, state } = await openRun(dir, s.runId, { sync: false, crash: (p) => points.push(p) });
  const saves: Promise<void>[] = [];
  for (let i = 1; i <= 10; i++) {
    state.turns = i;
    saves.push(handle.save(state, SavePoint.ResultSaved));
  }
  await Promise.all(saves);
  await handle.close();
  assert.deepEqual(points, Array.from({ length: 10 }, () => [WritePoint.TempSynced, WritePoint.Renamed]).flat());
  assert.equal((await readRun(dir, s.runId)).turns, 10);
});

test('save sets updatedAt', async (t) => {
  const dir = await tempDir(t);
  const s = sampleState();
  const h = await createRun(dir, s);
  assert.notEqual(s.updatedAt, s.createdAt);
  await h.close();
  assert.equal((await readRun(dir, s.runId)).updatedAt, s.updatedAt);
});

test('files are 0600 and directories 0700', { skip: process.platform === 'win32' }, async (t) => {
  const root = await tempDir(t);
  const dir = path.join(root, 'state', 'nested');
  const s = sampleState();
  const h = await createRun(dir, s);
  const sha = await h.putBlob(Buffer.from('hello'));
  await h.close();
  const mode = async (p: string): Promise<number> => (await fs.stat(p)).mode & 0o777;
  assert.equal(await mode(path.join(root, 'state')), 0o700);
  assert.equal(await mode(dir), 0o700);
  assert.equal(await mode(path.join(dir, 'runs')), 0o700);
  assert.equal(await mode(path.join(dir, 'blobs')), 0o700);
  assert.equal(await mode(runPath(dir, s.runId)), 0o600);
  assert.equal(await mode(path.join(dir, 'blobs', sha)), 0o600);
});
