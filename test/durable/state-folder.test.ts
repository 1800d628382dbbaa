/** A state folder is used only if it and its subfolders are real folders of ours that no one else can write. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { FileRunStore } from '../../src/store/files/file-run-store';
import { UnsafeStateFolderError } from '../../src/store/files/state-folder-check';
import { BadInputError } from '../../src/core/errors';
import { sampleState } from './helpers/fixtures';
import { tempDir } from '../support/temp-dir';

const POSIX = process.platform !== 'win32';
const ROOT = typeof process.getuid === 'function' && process.getuid() === 0;

/** A state folder holding one closed run; returns the folder and the run's ID. */
async function stateWithRun(t: import('node:test').TestContext): Promise<{ dir: string; runId: string }> {
  const dir = path.join(tempDir(t), 'state');
  const s = sampleState();
  await (await new FileRunStore(dir).createRun(s)).close();
  return { dir, runId: s.runId };
}

function refused(folder: string, problem: RegExp, fix: RegExp): (e: unknown) => boolean {
  return (e: unknown) => {
    assert.ok(e instanceof UnsafeStateFolderError, String(e));
    assert.ok(e instanceof BadInputError, 'bad input: exit 2 in the CLI');
    assert.equal(e.folder, folder);
    assert.match(e.message, problem);
    assert.match(e.message, fix);
    assert.ok(e.message.includes(folder), e.message);
    return true;
  };
}

test('a fresh state folder passes, and every folder made in it is 0700', { skip: !POSIX }, async (t) => {
  const { dir } = await stateWithRun(t);
  const store = new FileRunStore(dir);
  await store.events().append('r1', [{ type: 'checks', at: new Date().toISOString(), passed: 1, total: 1, failed: [] }]);
  assert.equal((await store.listRuns()).length, 1);
  for (const sub of ['runs', 'blobs', 'events']) assert.equal(((await fs.stat(path.join(dir, sub))).mode & 0o777).toString(8), '700', sub);
});

test('a planted blobs link is refused, and nothing is written where it points', { skip: !POSIX }, async (t) => {
  const { dir, runId } = await stateWithRun(t);
  const elsewhere = tempDir(t, 'planted-');
  const blobs = path.join(dir, 'blobs');
  await fs.rm(blobs, { recursive: true });
  await fs.symlink(elsewhere, blobs);
  const store = new FileRunStore(dir);
  await assert.rejects(store.openRun(runId), refused(blobs, /is a symbolic link \(to .*planted-/, /Remove the link \(rm .*blobs\)/));
  await assert.rejects(store.getBlob('0'.repeat(64)), UnsafeStateFolderError);
  await assert.rejects(store.createRun(sampleState()), UnsafeStateFolderError);
  assert.deepEqual(await fs.readdir(elsewhere), []);
  assert.equal((await fs.lstat(blobs)).isSymbolicLink(), true, 'the link is left as it is');
});

test('a state folder that is itself a link is refused, naming the real folder', { skip: !POSIX }, async (t) => {
  const { dir } = await stateWithRun(t);
  const link = path.join(path.dirname(dir), 'link-to-state');
  await fs.symlink(dir, link);
  await assert.rejects(new FileRunStore(link).listRuns(), refused(link, /is a symbolic link/, /Give the real folder instead/));
});

test('a folder anyone can write (0777) is refused with the chmod that fixes it, and its mode is left as it is', { skip: !POSIX }, async (t) => {
  const { dir, runId } = await stateWithRun(t);
  const runs = path.join(dir, 'runs');
  await fs.chmod(runs, 0o777);
  const store = new FileRunStore(dir);
  await assert.rejects(
    store.openRun(runId),
    refused(runs, /can be written by anyone \(mode 0777\)/, new RegExp(`chmod 700 ${runs.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`)),
  );
  await assert.rejects(store.events().read(runId), UnsafeStateFolderError);
  assert.equal(((await fs.stat(runs)).mode & 0o777).toString(8), '777');
  // Group-writable is refused too; once fixed, the same store goes on (a refusal is not remembered).
  await fs.chmod(runs, 0o770);
  await assert.rejects(store.readRun(runId), refused(runs, /can be written by its group \(mode 0770\)/, /chmod 700/));
  await fs.chmod(runs, 0o700);
  assert.equal((await store.readRun(runId)).runId, runId);
});

test('a shared sticky folder (like /tmp) is not to be chmodded: the fix is a folder of your own inside it', { skip: !POSIX }, async (t) => {
  const dir = tempDir(t);
  await fs.chmod(dir, 0o1777);
  await assert.rejects(
    new FileRunStore(dir).listRuns(),
    refused(dir, /mode 01777/, /shared folder \(sticky bit\): give a folder of your own inside it \(mkdir -m 700/),
  );
  assert.equal(((await fs.stat(dir)).mode & 0o7777).toString(8), '1777');
});

test('a state folder or subfolder owned by another user is refused', { skip: !POSIX || !ROOT }, async (t) => {
  const { dir, runId } = await stateWithRun(t);
  const events = path.join(dir, 'events');
  await fs.mkdir(events, { mode: 0o700 });
  await fs.chown(events, 12345, 12345);
  await assert.rejects(new FileRunStore(dir).openRun(runId), refused(events, /belongs to user id 12345, not to you \(user id 0\)/, /chown -R 0 /));
  await fs.chown(events, 0, 0);
  await fs.chown(dir, 12345, 12345);
  await assert.rejects(new FileRunStore(dir).listRuns(), refused(dir, /belongs to user id 12345/, /Use a state folder of your own/));
});

test('a file where a subfolder belongs is refused', async (t) => {
  const { dir } = await stateWithRun(t);
  const tracker = path.join(dir, 'tracker');
  await fs.writeFile(tracker, 'not a folder');
  await assert.rejects(new FileRunStore(dir).listRuns(), refused(tracker, /is not a folder/, /Move it out of the way/));
});
