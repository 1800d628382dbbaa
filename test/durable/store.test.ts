import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { createRun, deleteRun, listRuns, openRun, readRun, runPath } from '../../src/store/files/checkpoint';
import { BadInputError, CorruptCheckpointError, LockedError, RunExistsError } from '../../src/core/errors';
import { sha256Hex } from '../../src/workspace/ledger';
import { SavePoint } from '../../src/store/save-points';
import { sampleState } from './helpers/fixtures';
import { journalPath } from './helpers/journal';
import { tempDir } from '../support/temp-dir';

test('createRun writes the initial checkpoint, readable with and without the lock', async (t) => {
  const dir = tempDir(t);
  const s = sampleState();
  const h = await createRun(dir, s);
  assert.equal(h.runId, s.runId);
  assert.equal(h.location, dir);
  assert.deepEqual(await readRun(dir, s.runId), s);
  await h.close();
  const { handle, state } = await openRun(dir, s.runId);
  assert.deepEqual(state, s);
  await handle.close();
});

test('createRun twice with the same run ID is RunExistsError, and the first checkpoint is kept', async (t) => {
  const dir = tempDir(t);
  const s = sampleState();
  await (await createRun(dir, s)).close();
  const before = await fs.readFile(runPath(dir, s.runId));
  const again = { ...s, task: 'other' };
  await assert.rejects(createRun(dir, again), RunExistsError);
  assert.deepEqual(await fs.readFile(runPath(dir, s.runId)), before);
  // The failed create released its lock.
  const { handle } = await openRun(dir, s.runId);
  await handle.close();
});

test('createRun while the run is open elsewhere is LockedError', async (t) => {
  const dir = tempDir(t);
  const s = sampleState();
  const h = await createRun(dir, s);
  await assert.rejects(createRun(dir, s), LockedError);
  await h.close();
});

test('opening, reading or deleting a run that does not exist is BadInputError', async (t) => {
  const dir = tempDir(t);
  await assert.rejects(openRun(dir, 'nope'), BadInputError);
  await assert.rejects(readRun(dir, 'nope'), BadInputError);
  await assert.rejects(deleteRun(dir, 'nope'), BadInputError);
  await (await createRun(dir, sampleState())).close();
  await assert.rejects(openRun(dir, 'nope'), BadInputError);
  assert.equal(
    (await fs.readdir(path.join(dir, 'runs'))).some((n) => n.startsWith('nope')),
    false,
    'no lock left behind',
  );
});

test('run IDs that could leave the runs folder are refused', async (t) => {
  const dir = tempDir(t);
  for (const bad of ['../x', 'a/b', 'a\\b', '.hidden', '', 'a..b']) {
    await assert.rejects(openRun(dir, bad), BadInputError, bad);
  }
  await assert.rejects(createRun(dir, sampleState('/tmp/ws', '../escape')), BadInputError);
});

test('listRuns: newest first, with lock status; lock and temp files are not runs', async (t) => {
  const dir = tempDir(t);
  assert.deepEqual(await listRuns(dir), []);
  const older = sampleState('/tmp/ws', 'older');
  const newer = sampleState('/tmp/ws', 'newer');
  newer.createdAt = '2025-02-01T00:00:00.000Z';
  await (await createRun(dir, newer)).close();
  const h = await createRun(dir, older);
  await fs.writeFile(path.join(dir, 'runs', '.older.json.abcd.tmp'), 'half');
  const list = await listRuns(dir);
  assert.deepEqual(
    list.map((l) => [l.runId, l.locked]),
    [
      ['newer', false],
      ['older', true],
    ],
  );
  assert.equal(list[0].file, runPath(dir, 'newer'));
  assert.equal(list[0].state?.task, 'sample-task');
  await h.close();
});

test('deleteRun removes the checkpoint and leaves blobs; refused while the run is open', async (t) => {
  const dir = tempDir(t);
  const s = sampleState();
  const h = await createRun(dir, s);
  const sha = await h.putBlob(Buffer.from('kept'));
  await assert.rejects(deleteRun(dir, s.runId), LockedError);
  await h.close();
  await deleteRun(dir, s.runId);
  await assert.rejects(readRun(dir, s.runId), BadInputError);
  assert.deepEqual(await listRuns(dir), []);
  assert.equal((await fs.readFile(path.join(dir, 'blobs', sha))).toString(), 'kept');
  // Nothing stays locked.
  await fs.stat(runPath(dir, s.runId) + '.lock').then(
    () => assert.fail('lock left behind'),
    () => undefined,
  );
});

test('deleteRun works on a corrupt checkpoint', async (t) => {
  const dir = tempDir(t);
  const s = sampleState();
  await (await createRun(dir, s)).close();
  await fs.writeFile(runPath(dir, s.runId), '{');
  await deleteRun(dir, s.runId);
  assert.deepEqual(await listRuns(dir), []);
});

test('the content store: put returns the SHA-256, get returns the bytes, absent is undefined, tampered is corrupt', async (t) => {
  const dir = tempDir(t);
  const h = await createRun(dir, sampleState());
  t.after(() => h.close());
  const bytes = Buffer.from([0, 1, 2, 255, 10, 13]);
  const sha = await h.putBlob(bytes);
  assert.equal(sha, sha256Hex(bytes));
  assert.equal(await h.putBlob(bytes), sha, 'storing again is a no-op');
  assert.deepEqual(await h.getBlob(sha), bytes);
  assert.equal(await h.getBlob(sha256Hex('never stored')), undefined);
  assert.deepEqual(
    (await fs.readdir(path.join(dir, 'blobs'))).filter((n) => n.endsWith('.tmp')),
    [],
  );
  await fs.writeFile(path.join(dir, 'blobs', sha), 'tampered');
  await assert.rejects(h.getBlob(sha), CorruptCheckpointError);
  await assert.rejects(h.getBlob('../../etc/passwd'), TypeError);
});

test('deleteRun removes the journal too; createRun removes a journal left without its snapshot', async (t) => {
  const dir = tempDir(t);
  const s = sampleState();
  const h = await createRun(dir, s);
  s.turns = 3;
  await h.save(s, SavePoint.ResultSaved);
  await h.close();
  const journal = journalPath(dir, s.runId);
  assert.ok((await fs.stat(journal)).size > 0);
  await deleteRun(dir, s.runId);
  await assert.rejects(fs.stat(journal), /ENOENT/);
  // A deletion that died between its two unlinks leaves a journal no run lists...
  await fs.writeFile(journal, 'left over\n');
  assert.deepEqual(await listRuns(dir), []);
  // ...and a run created under that ID does not pick it up.
  const again = sampleState('/tmp/ws', s.runId);
  await (await createRun(dir, again)).close();
  assert.deepEqual(await readRun(dir, s.runId), again);
  await assert.rejects(fs.stat(journal), /ENOENT/);
});
