import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { createRun, openRun, readRun, runPath } from '../../src/store/files/checkpoint';
import { SimulatedCrash } from '../../src/sweep/simulated-crash';
import { SavePoint } from '../../src/store/save-points';
import { WritePoint } from '../../src/disk/write-points';
import { sampleState } from './helpers/fixtures';
import { crashAt, exists, journalPath, tempNames } from './helpers/journal';
import { tempDir } from '../support/temp-dir';

for (const sync of [true, false]) {
  test(`a crash inside a run's first write: after the temp file is synced there is no run yet (sync ${sync})`, async (t) => {
    const dir = tempDir(t);
    const s = sampleState();
    const crash = crashAt(WritePoint.TempSynced);
    await assert.rejects(createRun(dir, s, { sync, crash: crash.hook }), (e) => e === crash.thrown[0]);
    assert.equal(await exists(runPath(dir, s.runId)), false);
    assert.equal((await tempNames(dir)).length, 1, 'the crash left its temp file, as a real one would');
    const h = await createRun(dir, s, { sync });
    await h.close();
    assert.deepEqual(await tempNames(dir), [], 'creating the run again removed the leftover');
    assert.equal((await readRun(dir, s.runId)).runId, s.runId);
  });
}

test("a crash after the first write's rename leaves the run created", async (t) => {
  const dir = tempDir(t);
  const s = sampleState();
  const crash = crashAt(WritePoint.Renamed);
  await assert.rejects(createRun(dir, s, { crash: crash.hook }), SimulatedCrash);
  assert.deepEqual(await readRun(dir, s.runId), s);
});

for (const sync of [true, false]) {
  test(`a crash halfway through a journal append leaves the previous save (sync ${sync})`, async (t) => {
    const dir = tempDir(t);
    const s = sampleState();
    await (await createRun(dir, s, { sync })).close();
    const crash = crashAt(WritePoint.JournalTorn);
    const { handle, state } = await openRun(dir, s.runId, { sync, crash: crash.hook });
    state.turns = 5;
    await assert.rejects(handle.save(state, SavePoint.ReplyArrived), (e) => e === crash.thrown[0]);
    await assert.rejects(handle.save(state, SavePoint.ReplyArrived), (e) => e === crash.thrown[0], 'a crashed handle saves nothing more');
    await handle.close(); // abandon, as the crash would
    const torn = await fs.readFile(journalPath(dir, s.runId));
    assert.ok(torn.length > 0 && torn[torn.length - 1] !== 0x0a, 'half a record is on disk');
    assert.equal((await readRun(dir, s.runId)).turns, 0);
    assert.deepEqual(await fs.readFile(journalPath(dir, s.runId)), torn, 'readRun changes nothing');
    const again = await openRun(dir, s.runId, { sync });
    assert.equal(again.state.turns, 0);
    assert.equal((await fs.stat(journalPath(dir, s.runId))).size, 0, 'openRun cut the torn tail');
    again.state.turns = 6;
    await again.handle.save(again.state, SavePoint.ReplyArrived);
    await again.handle.close();
    assert.equal((await readRun(dir, s.runId)).turns, 6);
  });
}

test('a crash once a journal record is synced keeps the save', async (t) => {
  const dir = tempDir(t);
  const s = sampleState();
  await (await createRun(dir, s)).close();
  const crash = crashAt(WritePoint.JournalAppended);
  const { handle, state } = await openRun(dir, s.runId, { crash: crash.hook });
  state.turns = 7;
  await assert.rejects(handle.save(state, SavePoint.ResultSaved), (e) => e === crash.thrown[0]);
  await handle.close();
  assert.equal((await readRun(dir, s.runId)).turns, 7);
});

test('every write passes two crash points, in order: the snapshot points first, then the journal points per save', async (t) => {
  const dir = tempDir(t);
  const points: string[] = [];
  const s = sampleState();
  const h = await createRun(dir, s, { crash: (p) => points.push(p) });
  await h.save(s, SavePoint.RunStarted);
  await h.save(s, SavePoint.ReplyArrived);
  await h.close();
  assert.deepEqual(points, [
    WritePoint.TempSynced,
    WritePoint.Renamed,
    WritePoint.JournalTorn,
    WritePoint.JournalAppended,
    WritePoint.JournalTorn,
    WritePoint.JournalAppended,
  ]);
});

test('concurrent saves are written one at a time, in call order, each as it was at its call', async (t) => {
  const dir = tempDir(t);
  const points: string[] = [];
  const s = sampleState();
  await (await createRun(dir, s, { sync: false })).close();
  const { handle, state } = await openRun(dir, s.runId, { sync: false, crash: (p) => points.push(p) });
  const saves: Promise<void>[] = [];
  for (let i = 1; i <= 10; i++) {
    state.turns = i;
    state.messages.push({ role: 'user', content: `note ${i}` });
    saves.push(handle.save(state, SavePoint.ResultSaved));
  }
  await Promise.all(saves);
  await handle.close();
  assert.deepEqual(points, Array.from({ length: 10 }, () => [WritePoint.JournalTorn, WritePoint.JournalAppended]).flat());
  const back = await readRun(dir, s.runId);
  assert.equal(back.turns, 10);
  assert.deepEqual(
    back.messages.map((m) => (m.role === 'user' ? m.content : '')).slice(1),
    Array.from({ length: 10 }, (_, i) => `note ${i + 1}`),
  );
});

test('save sets updatedAt', async (t) => {
  const dir = tempDir(t);
  const s = sampleState();
  const h = await createRun(dir, s);
  assert.notEqual(s.updatedAt, s.createdAt);
  const first = s.updatedAt;
  await new Promise((r) => setTimeout(r, 2));
  await h.save(s, SavePoint.ResultSaved);
  assert.notEqual(s.updatedAt, first);
  await h.close();
  assert.equal((await readRun(dir, s.runId)).updatedAt, s.updatedAt);
});

test('files are 0600 and directories 0700', { skip: process.platform === 'win32' }, async (t) => {
  const root = tempDir(t);
  const dir = path.join(root, 'state', 'nested');
  const s = sampleState();
  const h = await createRun(dir, s);
  const sha = await h.putBlob(Buffer.from('hello'));
  await h.save(s, SavePoint.ResultSaved);
  await h.close();
  const mode = async (p: string): Promise<number> => (await fs.stat(p)).mode & 0o777;
  assert.equal(await mode(path.join(root, 'state')), 0o700);
  assert.equal(await mode(dir), 0o700);
  assert.equal(await mode(path.join(dir, 'runs')), 0o700);
  assert.equal(await mode(path.join(dir, 'blobs')), 0o700);
  assert.equal(await mode(runPath(dir, s.runId)), 0o600);
  assert.equal(await mode(journalPath(dir, s.runId)), 0o600);
  assert.equal(await mode(path.join(dir, 'blobs', sha)), 0o600);
});
