import { acceptedFilesNote } from '../../src/agent/notes';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { BadInputError, CorruptCheckpointError, WorkspaceChangedError } from '../../src/core/errors';
import { acceptCurrentFiles, checkWorkspace, ledgerPath, restoreAgentVersion, sha256Hex, verifyWorkspace } from '../../src/workspace/ledger';
import { ledgerSetup } from './helpers/ledger-setup';

test('sha256Hex matches the FIPS 180-2 test vector', () => {
  assert.equal(sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  assert.equal(sha256Hex(Buffer.from('abc')), sha256Hex('abc'));
});

test('recordWrite records hash, size and call, and stores the bytes; verify passes', async (t) => {
  const { state, handle, write } = await ledgerSetup(t);
  await write('src/a.js', 'one\n', undefined, 'call_7');
  const rec = state.files?.['src/a.js'];
  assert.equal(rec?.sha256, sha256Hex('one\n'));
  assert.equal(rec?.size, 4);
  assert.equal(rec?.callId, 'call_7');
  assert.ok(!Number.isNaN(Date.parse(rec.writtenAt)));
  assert.equal((await handle.getBlob(rec.sha256))?.toString(), 'one\n');
  await verifyWorkspace(state);
  assert.deepEqual(await checkWorkspace(state.config.workspace, undefined), []);
});

test('paths are workspace-relative with forward slashes', async (t) => {
  const { state, write } = await ledgerSetup(t);
  await write('./lib\\b.js', 'b');
  assert.deepEqual(Object.keys(state.files ?? {}), ['lib/b.js']);
  assert.equal(ledgerPath('x/./y/../z.js'), 'x/z.js');
  for (const bad of ['../out.js', '/etc/passwd', 'C:\\x', '.', 'a/../../b']) assert.throws(() => ledgerPath(bad), BadInputError, bad);
});

test('an edited file stops the run with WorkspaceChangedError listing path, expected and actual', async (t) => {
  const { ws, state, write } = await ledgerSetup(t);
  await write('src/a.js', 'one\n');
  await write('src/b.js', 'two\n');
  await fs.writeFile(path.join(ws, 'src/b.js'), 'edited\n');
  await assert.rejects(verifyWorkspace(state), (e: unknown) => {
    assert.ok(e instanceof WorkspaceChangedError);
    assert.equal(e.runId, state.runId);
    assert.deepEqual(e.changes, [{ path: 'src/b.js', expected: sha256Hex('two\n'), actual: sha256Hex('edited\n') }]);
    assert.match(e.message, /src\/b\.js/);
    return true;
  });
});

test('a deleted file is a change with actual null', async (t) => {
  const { ws, state, write } = await ledgerSetup(t);
  await write('gone.txt', 'bye');
  await fs.rm(path.join(ws, 'gone.txt'));
  await assert.rejects(verifyWorkspace(state), (e: unknown) => {
    assert.ok(e instanceof WorkspaceChangedError);
    assert.deepEqual(e.changes, [{ path: 'gone.txt', expected: sha256Hex('bye'), actual: null }]);
    assert.match(e.message, /missing/);
    return true;
  });
});

test('checkWorkspace reports many changes, sorted by path', async (t) => {
  const { ws, state, write } = await ledgerSetup(t);
  for (let i = 0; i < 30; i++) await write(`f${String(i).padStart(2, '0')}.txt`, `v${i}`);
  for (const n of ['03', '17', '29']) await fs.writeFile(path.join(ws, `f${n}.txt`), 'x');
  await fs.rm(path.join(ws, 'f05.txt'));
  const changes = await checkWorkspace(ws, state.files);
  assert.deepEqual(
    changes.map((c) => c.path),
    ['f03.txt', 'f05.txt', 'f17.txt', 'f29.txt'],
  );
});

test('restoreAgentVersion brings back the exact bytes of edited and deleted files', async (t) => {
  const { ws, state, handle, write } = await ledgerSetup(t);
  const binary = Buffer.from([0, 159, 146, 150, 10, 13, 255]);
  await write('bin/data.bin', binary);
  await write('src/a.js', 'agent\n');
  await fs.writeFile(path.join(ws, 'src/a.js'), 'person\n');
  await fs.rm(path.join(ws, 'bin'), { recursive: true });
  const changes = await checkWorkspace(ws, state.files);
  assert.equal(changes.length, 2);
  await restoreAgentVersion(handle, state, changes);
  assert.deepEqual(await fs.readFile(path.join(ws, 'bin/data.bin')), binary);
  assert.equal(await fs.readFile(path.join(ws, 'src/a.js'), 'utf8'), 'agent\n');
  await verifyWorkspace(state);
});

test('restoreAgentVersion with the agent version missing from the store is a clear error, and writes nothing', async (t) => {
  const { ws, state, handle, write } = await ledgerSetup(t);
  await write('a.txt', 'agent');
  await fs.writeFile(path.join(ws, 'a.txt'), 'person');
  await fs.rm(path.join(handle.location, 'blobs', sha256Hex('agent')));
  await assert.rejects(
    restoreAgentVersion(handle, state, await checkWorkspace(ws, state.files)),
    (e: unknown) => e instanceof CorruptCheckpointError && /a\.txt/.test(e.message),
  );
  assert.equal(await fs.readFile(path.join(ws, 'a.txt'), 'utf8'), 'person');
});

test('acceptCurrentFiles re-records the current files and returns what changed, for a note with a diff', async (t) => {
  const { ws, state, edit, handle, write } = await ledgerSetup(t);
  await write('src/a.js', 'line1\nline2\nline3\n', undefined, 'call_3');
  await write('notes.md', 'old notes\n');
  await fs.writeFile(path.join(ws, 'src/a.js'), 'line1\nCHANGED\nline3\n');
  await fs.rm(path.join(ws, 'notes.md'));
  const changes = await checkWorkspace(ws, state.files);
  const accepted = await acceptCurrentFiles(handle, edit, changes);
  await verifyWorkspace(state);
  const rec = state.files?.['src/a.js'];
  assert.equal(rec?.sha256, sha256Hex('line1\nCHANGED\nline3\n'));
  assert.equal(rec?.callId, 'call_3');
  assert.equal(state.files?.['notes.md'], undefined, 'a deleted file leaves the ledger');
  assert.equal((await handle.getBlob(rec.sha256))?.toString(), 'line1\nCHANGED\nline3\n', 'the current bytes are stored');
  assert.deepEqual(
    accepted.map((a) => [a.path, a.now]),
    [
      ['notes.md', null],
      ['src/a.js', 'line1\nCHANGED\nline3\n'],
    ],
  );
  assert.equal(state.inbox, undefined, 'the ledger writes no text for the model');
  const note = acceptedFilesNote(accepted);
  assert.match(note, /--- a\/src\/a\.js/);
  assert.match(note, /\+\+\+ b\/src\/a\.js/);
  assert.match(note, /^-line2$/m);
  assert.match(note, /^\+CHANGED$/m);
  assert.match(note, /notes\.md: deleted/);
});

test('acceptCurrentFiles with no changes accepts nothing and changes nothing', async (t) => {
  const { state, edit, handle, write } = await ledgerSetup(t);
  await write('a.txt', 'same');
  assert.deepEqual(await acceptCurrentFiles(handle, edit, []), []);
  assert.equal(edit.changed, true, 'only the write was recorded');
  assert.equal(state.inbox, undefined);
});

test('a file that grew or shrank is reported with the hash of all its current bytes', async (t) => {
  const { ws, state, write } = await ledgerSetup(t);
  await write('grew.txt', 'abc');
  await write('shrank.txt', 'abcdef');
  await write('empty.txt', '');
  const big = Buffer.alloc(200_000, 7);
  await fs.writeFile(path.join(ws, 'grew.txt'), big);
  await fs.writeFile(path.join(ws, 'shrank.txt'), 'ab');
  assert.deepEqual(await checkWorkspace(ws, state.files), [
    { path: 'grew.txt', expected: sha256Hex('abc'), actual: sha256Hex(big) },
    { path: 'shrank.txt', expected: sha256Hex('abcdef'), actual: sha256Hex('ab') },
  ]);
});

test('a recorded file replaced by a folder counts as missing', async (t) => {
  const { ws, state, write } = await ledgerSetup(t);
  await write('x', 'file');
  await fs.rm(path.join(ws, 'x'));
  await fs.mkdir(path.join(ws, 'x'));
  assert.deepEqual(await checkWorkspace(ws, state.files), [{ path: 'x', expected: sha256Hex('file'), actual: null }]);
});
