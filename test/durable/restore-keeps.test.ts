/** Restore keeps the person's versions of the changed files before writing the agent's back. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { checkWorkspace, restoreAgentVersion } from '../../src/workspace/ledger';
import { keptFolder } from '../../src/triage/run-admin';
import { ledgerSetup } from './helpers/ledger-setup';

test("Restore copies the person's edited files to the keep folder first; a deleted file has nothing to keep", async (t) => {
  const { root, ws, state, handle, write } = await ledgerSetup(t);
  await write('src/a.js', 'agent\n');
  await write('b.txt', 'agent b\n');
  await fs.writeFile(path.join(ws, 'src/a.js'), 'person\n');
  await fs.rm(path.join(ws, 'b.txt'));
  const keepTo = path.join(root, 'state', 'kept', 'r1', 'now');
  const kept = await restoreAgentVersion(handle, state, await checkWorkspace(ws, state.files), { keepTo });
  assert.deepEqual(kept, ['src/a.js']);
  assert.equal(await fs.readFile(path.join(keepTo, 'src/a.js'), 'utf8'), 'person\n');
  assert.equal(await fs.readFile(path.join(ws, 'src/a.js'), 'utf8'), 'agent\n');
  assert.equal(await fs.readFile(path.join(ws, 'b.txt'), 'utf8'), 'agent b\n');
});

test('the keep folder is beside the run state (a shared store: under the home folder), one per Restore', () => {
  const at = new Date('2025-01-02T03:04:05.678Z');
  assert.equal(keptFolder({ kind: 'files', where: '/s' }, 'r1', at), '/s/kept/r1/2025-01-02T03-04-05-678Z');
  assert.equal(keptFolder({ kind: 'postgres', where: 'postgres://h/db' }, 'r1', at, '/home/u'), '/home/u/.durable-triage/kept/r1/2025-01-02T03-04-05-678Z');
});
