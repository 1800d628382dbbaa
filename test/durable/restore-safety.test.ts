/**
 * Restore (the agent's version written back over changed files) refuses a path that goes through
 * a symlink out of the workspace, and a stored version that no longer matches its SHA-256:
 * a typed error naming the file, and nothing written.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { CorruptCheckpointError, WorkspaceLinkError } from '../../src/core/errors';
import { checkWorkspace, restoreAgentVersion, sha256Hex, verifyWorkspace } from '../../src/workspace/ledger';
import { handleServing, ledgerSetup } from './helpers/ledger-setup';

test('a recorded file replaced by a symlink to a file outside the workspace: Restore refuses, and the outside file is untouched', async (t) => {
  const { root, ws, state, handle, write } = await ledgerSetup(t);
  await write('a.txt', 'agent');
  const outside = path.join(root, 'secret.txt');
  await fs.writeFile(outside, 'secret');
  await fs.rm(path.join(ws, 'a.txt'));
  await fs.symlink(outside, path.join(ws, 'a.txt'));
  const changes = await checkWorkspace(ws, state.files);
  assert.deepEqual(
    changes.map((c) => c.path),
    ['a.txt'],
  );
  await assert.rejects(restoreAgentVersion(handle, state, changes), (e: unknown) => {
    assert.ok(e instanceof WorkspaceLinkError, String(e));
    assert.equal(e.path, 'a.txt');
    assert.equal(e.code, 'workspace-link');
    assert.match(e.message, /a\.txt is reached through a symlink that leads out of the workspace .*Nothing was written or deleted/);
    return true;
  });
  assert.equal(await fs.readFile(outside, 'utf8'), 'secret');
  assert.ok((await fs.lstat(path.join(ws, 'a.txt'))).isSymbolicLink());
});

test('a folder above a recorded file replaced by a symlink out: Restore refuses before writing any file', async (t) => {
  const { root, ws, state, handle, write } = await ledgerSetup(t);
  await write('b.txt', 'agent b');
  await write('src/a.js', 'agent a');
  await fs.writeFile(path.join(ws, 'b.txt'), 'person b'); // sorted first: the old code wrote it before reaching src/a.js
  const elsewhere = path.join(root, 'elsewhere');
  await fs.mkdir(elsewhere);
  await fs.writeFile(path.join(elsewhere, 'a.js'), 'theirs');
  await fs.rm(path.join(ws, 'src'), { recursive: true });
  await fs.symlink(elsewhere, path.join(ws, 'src'));
  const changes = await checkWorkspace(ws, state.files);
  assert.deepEqual(
    changes.map((c) => c.path),
    ['b.txt', 'src/a.js'],
  );
  await assert.rejects(
    restoreAgentVersion(handle, state, changes),
    (e: unknown) => e instanceof WorkspaceLinkError && e.path === 'src/a.js' && e.link === 'src' && /the symlink src that leads out/.test(e.message),
  );
  assert.equal(await fs.readFile(path.join(elsewhere, 'a.js'), 'utf8'), 'theirs');
  assert.equal(await fs.readFile(path.join(ws, 'b.txt'), 'utf8'), 'person b', 'nothing written');
});

test('a broken symlink in place of a recorded file is refused too; a symlink that stays inside the workspace is followed', async (t) => {
  const { root, ws, state, handle, write } = await ledgerSetup(t);
  await write('gone.txt', 'agent');
  await fs.rm(path.join(ws, 'gone.txt'));
  await fs.symlink(path.join(root, 'nowhere', 'x.txt'), path.join(ws, 'gone.txt'));
  await assert.rejects(
    restoreAgentVersion(handle, state, await checkWorkspace(ws, state.files)),
    (e: unknown) => e instanceof WorkspaceLinkError && e.target === undefined && /broken/.test(e.message),
  );
  await fs.access(path.join(root, 'nowhere')).then(
    () => assert.fail('nothing is created where the link points'),
    () => undefined,
  );

  await fs.rm(path.join(ws, 'gone.txt'));
  await fs.mkdir(path.join(ws, 'real'));
  await fs.symlink(path.join(ws, 'real'), path.join(ws, 'lib'));
  await write('lib/c.txt', 'agent c');
  await fs.writeFile(path.join(ws, 'real', 'c.txt'), 'person c');
  await restoreAgentVersion(handle, state, await checkWorkspace(ws, state.files));
  assert.equal(await fs.readFile(path.join(ws, 'real', 'c.txt'), 'utf8'), 'agent c');
  await verifyWorkspace(state);
});

test('a stored version that no longer matches its SHA-256: Restore names the file, and the file is untouched', async (t) => {
  const { ws, state, handle, write } = await ledgerSetup(t);
  await write('a.txt', 'agent');
  await fs.writeFile(path.join(ws, 'a.txt'), 'person');
  const changes = await checkWorkspace(ws, state.files);
  // A store that hands back bytes unchecked (as the PostgreSQL store does).
  await assert.rejects(
    restoreAgentVersion(handleServing(handle, Buffer.from('tampered')), state, changes),
    (e: unknown) => e instanceof CorruptCheckpointError && /agent's version of a\.txt .*no longer matches/.test(e.message),
  );
  assert.equal(await fs.readFile(path.join(ws, 'a.txt'), 'utf8'), 'person');
  // The file store's blob corrupted on disk.
  const blob = path.join(handle.location, 'blobs', sha256Hex('agent'));
  await fs.chmod(blob, 0o600);
  await fs.writeFile(blob, 'tampered');
  await assert.rejects(
    restoreAgentVersion(handle, state, changes),
    (e: unknown) => e instanceof CorruptCheckpointError && /agent's version of a\.txt/.test(e.message),
  );
  assert.equal(await fs.readFile(path.join(ws, 'a.txt'), 'utf8'), 'person');
});
