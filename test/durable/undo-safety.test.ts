/**
 * Undo (each file put back as before the run, each file it created deleted) refuses a path that
 * goes through a symlink out of the workspace: a typed error naming the file, nothing written or
 * deleted, in the workspace or outside it. A stored version that no longer matches is refused too.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { CorruptCheckpointError, WorkspaceLinkError } from '../../src/core/errors';
import { undoRunChanges } from '../../src/workspace/undo';
import { ABSENT } from '../../src/store/state';
import { handleServing, ledgerSetup, type LedgerSetup } from './helpers/ledger-setup';

/** The run changed src/a.js ("orig" -> "agent") and created src/new.js. */
async function ranOnce(s: LedgerSetup): Promise<void> {
  const orig = await s.handle.putBlob(Buffer.from('orig'));
  await s.write('src/a.js', 'agent', orig);
  await s.write('src/new.js', 'new', ABSENT);
}

async function exists(p: string): Promise<boolean> {
  return fs.lstat(p).then(
    () => true,
    () => false,
  );
}

test('undo puts back and deletes the files of the run (a symlink inside the workspace is fine)', async (t) => {
  const s = await ledgerSetup(t);
  await ranOnce(s);
  await s.write('docs/b.md', 'agent b', ABSENT);
  await fs.rename(path.join(s.ws, 'docs'), path.join(s.ws, 'real-docs'));
  await fs.symlink(path.join(s.ws, 'real-docs'), path.join(s.ws, 'docs'));
  assert.deepEqual(await undoRunChanges(s.handle, s.state), { restored: ['src/a.js'], deleted: ['docs/b.md', 'src/new.js'] });
  assert.equal(await fs.readFile(path.join(s.ws, 'src/a.js'), 'utf8'), 'orig');
  assert.equal(await exists(path.join(s.ws, 'src/new.js')), false);
  assert.equal(await exists(path.join(s.ws, 'real-docs/b.md')), false);
});

test('a recorded file replaced by a symlink to a file outside the workspace: Undo refuses and changes nothing', async (t) => {
  const s = await ledgerSetup(t);
  await ranOnce(s);
  const outside = path.join(s.root, 'their-a.js');
  await fs.writeFile(outside, 'agent'); // the same bytes: the ledger sees the file as the run left it
  await fs.rm(path.join(s.ws, 'src/a.js'));
  await fs.symlink(outside, path.join(s.ws, 'src/a.js'));
  await assert.rejects(undoRunChanges(s.handle, s.state), (e: unknown) => {
    assert.ok(e instanceof WorkspaceLinkError, String(e));
    assert.equal(e.path, 'src/a.js');
    assert.match(e.message, /^Undoing run .*'s changes was refused: src\/a\.js is reached through a symlink that leads out of the workspace/);
    return true;
  });
  assert.equal(await fs.readFile(outside, 'utf8'), 'agent');
  assert.equal(await fs.readFile(path.join(s.ws, 'src/new.js'), 'utf8'), 'new', 'nothing deleted');
});

test('a folder above the recorded files replaced by a symlink out: Undo neither writes nor deletes outside', async (t) => {
  const s = await ledgerSetup(t);
  await ranOnce(s);
  const elsewhere = path.join(s.root, 'elsewhere');
  await fs.rename(path.join(s.ws, 'src'), elsewhere);
  await fs.symlink(elsewhere, path.join(s.ws, 'src'));
  await assert.rejects(
    undoRunChanges(s.handle, s.state),
    (e: unknown) => e instanceof WorkspaceLinkError && e.link === 'src' && /src\/a\.js is reached through the symlink src/.test(e.message),
  );
  assert.equal(await fs.readFile(path.join(elsewhere, 'a.js'), 'utf8'), 'agent');
  assert.equal(await fs.readFile(path.join(elsewhere, 'new.js'), 'utf8'), 'new');
});

test('a version from before the run that no longer matches its SHA-256: Undo names the file and changes nothing', async (t) => {
  const s = await ledgerSetup(t);
  await ranOnce(s);
  await assert.rejects(
    undoRunChanges(handleServing(s.handle, Buffer.from('tampered')), s.state),
    (e: unknown) => e instanceof CorruptCheckpointError && /version of src\/a\.js from before the run .*no longer matches/.test(e.message),
  );
  assert.equal(await fs.readFile(path.join(s.ws, 'src/a.js'), 'utf8'), 'agent');
  assert.equal(await exists(path.join(s.ws, 'src/new.js')), true);
});
