import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import { createRun, listRuns, openRun, readRun, runPath } from '../../src/store/files/checkpoint';
import { CorruptCheckpointError } from '../../src/core/errors';
import { SavePoint } from '../../src/store/save-points';
import { fullState } from './helpers/fixtures';
import { tempDir } from '../support/temp-dir';

async function savedRun(t: import('node:test').TestContext): Promise<{ dir: string; runId: string; file: string }> {
  const dir = tempDir(t);
  const s = fullState();
  const h = await createRun(dir, s);
  s.turns++;
  await h.save(s, SavePoint.ResultSaved); // a journal too: a damaged snapshot is damage whatever follows it
  await h.close();
  return { dir, runId: s.runId, file: runPath(dir, s.runId) };
}

async function assertCorruptOnOpen(dir: string, runId: string, file: string, detail: RegExp): Promise<void> {
  const before = await fs.readFile(file);
  await assert.rejects(openRun(dir, runId), (e: unknown) => {
    assert.ok(e instanceof CorruptCheckpointError, `expected CorruptCheckpointError, got ${String(e)}`);
    assert.equal(e.file, file);
    assert.ok(e.message.includes(file), 'the message names the file');
    assert.match(e.message, detail);
    return true;
  });
  assert.deepEqual(await fs.readFile(file), before, 'the file is left untouched');
  // The lock was released: opening again gives the same error, not LockedError.
  await assert.rejects(openRun(dir, runId), CorruptCheckpointError);
  await assert.rejects(readRun(dir, runId), CorruptCheckpointError);
}

test('a checkpoint cut in half is a CorruptCheckpointError naming the file, and is left as it was', async (t) => {
  const { dir, runId, file } = await savedRun(t);
  const text = await fs.readFile(file);
  await fs.writeFile(file, text.subarray(0, Math.floor(text.length / 2)));
  await assertCorruptOnOpen(dir, runId, file, /truncated/);
});

test('an empty checkpoint is corrupt', async (t) => {
  const { dir, runId, file } = await savedRun(t);
  await fs.writeFile(file, '');
  await assertCorruptOnOpen(dir, runId, file, /empty/);
});

test('a checkpoint of another version is corrupt', async (t) => {
  const { dir, runId, file } = await savedRun(t);
  const raw = JSON.parse(await fs.readFile(file, 'utf8'));
  raw.state.version = 2;
  await fs.writeFile(file, JSON.stringify(raw));
  await assertCorruptOnOpen(dir, runId, file, /version/);
});

test('a field of the wrong type is corrupt, and the message names the field', async (t) => {
  const { dir, runId, file } = await savedRun(t);
  const raw = JSON.parse(await fs.readFile(file, 'utf8'));
  raw.state.turns = '3';
  await fs.writeFile(file, JSON.stringify(raw));
  await assertCorruptOnOpen(dir, runId, file, /\$\.turns/);
});

test('a nested bad field (tool-call args not a string) is corrupt', async (t) => {
  const { dir, runId, file } = await savedRun(t);
  const raw = JSON.parse(await fs.readFile(file, 'utf8'));
  raw.state.lastReply.calls[0].args = { path: 'a.js' };
  await fs.writeFile(file, JSON.stringify(raw));
  await assertCorruptOnOpen(dir, runId, file, /lastReply\.calls\[0\]\.args/);
});

test('a checkpoint holding another run is corrupt', async (t) => {
  const { dir, runId, file } = await savedRun(t);
  const raw = JSON.parse(await fs.readFile(file, 'utf8'));
  raw.state.runId = 'someone-else';
  await fs.writeFile(file, JSON.stringify(raw));
  await assertCorruptOnOpen(dir, runId, file, /someone-else/);
});

test('a file that is JSON but not a snapshot (a bare state, say) is corrupt', async (t) => {
  const { dir, runId, file } = await savedRun(t);
  const raw = JSON.parse(await fs.readFile(file, 'utf8'));
  await fs.writeFile(file, JSON.stringify(raw.state));
  await assertCorruptOnOpen(dir, runId, file, /"kind"/);
});

test('a snapshot without a save number is corrupt', async (t) => {
  const { dir, runId, file } = await savedRun(t);
  const raw = JSON.parse(await fs.readFile(file, 'utf8'));
  raw.seq = -1;
  await fs.writeFile(file, JSON.stringify(raw));
  await assertCorruptOnOpen(dir, runId, file, /"seq"/);
});

test('listRuns lists a corrupt run with its error instead of throwing', async (t) => {
  const { dir, runId, file } = await savedRun(t);
  const good = fullState();
  await (await createRun(dir, good)).close();
  await fs.writeFile(file, '{"version": 1,');
  const list = await listRuns(dir);
  assert.equal(list.length, 2);
  const bad = list.find((l) => l.runId === runId);
  assert.ok(bad?.error instanceof CorruptCheckpointError);
  assert.equal(bad.state, undefined);
  assert.equal(list.find((l) => l.runId === good.runId)?.state?.runId, good.runId);
});
