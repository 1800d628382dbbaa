import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { crashFolderTask } from '../../../src/triage/tasks/crash-folder';
import { runTriage } from '../../../src/triage/job';
import { BadInputError } from '../../../src/core/errors';
import type { Approver } from '../../../src/agent/approver';
import { tempDir } from '../../support/temp-dir';

const nobody: Approver = { approve: async () => 'later', resolve: async () => ({ answer: 'later' }) };

test('a folder of crash reports becomes one group per subfolder, with a prompt naming them', async (tc) => {
  const ws = tempDir(tc, 'triage-own-');
  fs.mkdirSync(path.join(ws, 'reports', 'npe'), { recursive: true });
  fs.mkdirSync(path.join(ws, 'reports', 'oom'), { recursive: true });
  fs.writeFileSync(path.join(ws, 'reports', 'npe', '1.txt'), 'TypeError');
  const t = await crashFolderTask(ws, 'reports');
  assert.deepEqual(t.groups.map((g) => [g.cause, g.crashes]), [['npe', 'reports/npe'], ['oom', 'reports/oom']]);
  assert.match(t.prompt, /cause "npe": the reports in reports\/npe\/\n {2}reports: reports\/npe\/1.txt/);
  assert.equal(t.checks.length, 0);
  await assert.rejects(crashFolderTask(ws, '../elsewhere'), (e: unknown) => e instanceof BadInputError && /outside/.test(e.message));
  await assert.rejects(crashFolderTask(ws, 'missing'), /does not exist/);
  await assert.rejects(
    runTriage({ stateDir: path.join(ws, '.state'), task: 'crash-folder', crashes: 'reports', workspace: ws, approver: nobody }),
    (e: unknown) => e instanceof BadInputError && /recorded demo model only replays/.test(e.message),
  );
});
