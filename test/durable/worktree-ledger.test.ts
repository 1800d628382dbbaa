/**
 * The ledger's entries for files written in a cause's worktree (--pull-requests), at the
 * ledger's level: where each is read, checked, restored and accepted, and the checkpoint format
 * (an entry without `worktree`, as every checkpoint saved before worktrees has, is the workspace's).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { decodeState, encodeState } from '../../src/store/state';
import { StateEdit } from '../../src/store/state-edit';
import { acceptCurrentFiles, beforeWrites, checkWorkspace, recordWrite, restoreAgentVersion, sha256Hex } from '../../src/workspace/ledger';
import { ledgerSetup } from './helpers/ledger-setup';
import { sampleState } from './helpers/fixtures';
import { tempDir } from '../support/temp-dir';
import { acceptedFilesNote } from '../../src/agent/notes';

test('a checkpoint saved before worktrees (no "worktree" in its entries) loads, and its entries are checked in the workspace', async (t) => {
  const ws = tempDir(t);
  fs.mkdirSync(path.join(ws, 'src'));
  fs.writeFileSync(path.join(ws, 'src', 'a.js'), 'one\n');
  const old = JSON.parse(encodeState(sampleState())) as Record<string, unknown>;
  (old.config as Record<string, unknown>).workspace = ws;
  old.files = { 'src/a.js': { sha256: sha256Hex('one\n'), size: 4, callId: 'call_1', writtenAt: '2025-01-02T03:05:02.000Z', before: 'absent' } };
  const s = decodeState(JSON.stringify(old), 'old.json');
  assert.equal(s.files?.['src/a.js'].worktree, undefined);
  assert.deepEqual(await checkWorkspace(ws, s.files), []);
  fs.writeFileSync(path.join(ws, 'src', 'a.js'), 'two\n');
  assert.deepEqual(
    (await checkWorkspace(ws, s.files)).map((c) => c.path),
    ['src/a.js'],
  );
});

test('an entry of a worktree survives encode and decode with where it was written', () => {
  const s = sampleState();
  s.files = {
    '/w/t/src/a.js': {
      sha256: 'b'.repeat(64),
      size: 4,
      callId: 'call_2',
      writtenAt: '2025-01-02T03:05:03.000Z',
      worktree: { cause: 'c', dir: '/w/t', path: 'src/a.js' },
    },
  };
  assert.deepEqual(decodeState(encodeState(s), 'x.json').files, s.files);
});

test('a write in a worktree: keyed by its absolute path (beside the same path in the workspace), its earlier version read there, checked, restored and accepted there', async (t) => {
  const { state, handle, write } = await ledgerSetup(t);
  const dir = tempDir(t);
  const root = { cause: 'total', dir };
  const key = `${dir.split(path.sep).join('/')}/src/a.js`;
  fs.mkdirSync(path.join(dir, 'src'));
  fs.writeFileSync(path.join(dir, 'src', 'a.js'), 'base\n');
  await write('src/a.js', 'in the workspace\n');
  const before = await beforeWrites(handle, state, ['src/a.js'], root);
  assert.deepEqual(before, { [key]: sha256Hex('base\n') }, "the worktree's file as it is, under the worktree's key");
  const edit = new StateEdit(state);
  edit.put('attempts', 'call_9', { callId: 'call_9', tool: 'write_file', startedAt: '2025-01-02T03:05:03.000Z', before });
  fs.writeFileSync(path.join(dir, 'src', 'a.js'), 'fixed\n');
  await recordWrite(handle, edit, 'src/a.js', Buffer.from('fixed\n'), 'call_9', root);
  const s = edit.raw;
  assert.deepEqual(Object.keys(s.files ?? {}).sort(), [key, 'src/a.js'].sort());
  assert.deepEqual(s.files?.[key].worktree, { cause: 'total', dir, path: 'src/a.js' });
  assert.equal(s.files?.[key].before, sha256Hex('base\n'));
  assert.equal(s.files?.['src/a.js'].worktree, undefined);
  assert.deepEqual(await checkWorkspace(s.config.workspace, s.files), []);

  fs.writeFileSync(path.join(dir, 'src', 'a.js'), 'mine\n');
  const changes = await checkWorkspace(s.config.workspace, s.files);
  assert.deepEqual(changes, [{ path: key, expected: sha256Hex('fixed\n'), actual: sha256Hex('mine\n') }]);
  const keepTo = tempDir(t);
  const kept = await restoreAgentVersion(handle, s, changes, { keepTo });
  assert.deepEqual(kept, [key]);
  assert.equal(fs.readFileSync(path.join(dir, 'src', 'a.js'), 'utf8'), 'fixed\n');
  assert.equal(fs.readFileSync(path.join(keepTo, 'worktrees', 'total', 'src', 'a.js'), 'utf8'), 'mine\n');
  assert.equal(fs.readFileSync(path.join(s.config.workspace, 'src', 'a.js'), 'utf8'), 'in the workspace\n', "the workspace's file of the same path untouched");

  fs.writeFileSync(path.join(dir, 'src', 'a.js'), 'mine again\n');
  const edit2 = new StateEdit(s);
  const accepted = await acceptCurrentFiles(handle, edit2, await checkWorkspace(s.config.workspace, s.files));
  assert.deepEqual(accepted, [{ path: 'src/a.js', cause: 'total', agentVersion: 'fixed\n', now: 'mine again\n' }]);
  assert.match(acceptedFilesNote(accepted), /In cause total's worktree:\n/);
  assert.equal(edit2.raw.files?.[key].sha256, sha256Hex('mine again\n'));
  assert.deepEqual(edit2.raw.files?.[key].worktree, { cause: 'total', dir, path: 'src/a.js' }, 'still the worktree');
  assert.deepEqual(await checkWorkspace(s.config.workspace, edit2.raw.files), []);
});
