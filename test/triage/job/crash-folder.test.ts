import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { crashFolderTask } from '../../../src/triage/tasks/crash-folder';
import { newTriageState, runTriage } from '../../../src/triage/job';
import { FileRunStore } from '../../../src/store/files/file-run-store';
import { DEFAULT_MODELS } from '../../../src/model/factory';
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
  assert.deepEqual(
    t.groups.map((g) => [g.cause, g.crashes]),
    [
      ['npe', 'reports/npe'],
      ['oom', 'reports/oom'],
    ],
  );
  assert.match(t.prompt, /cause "npe": the reports in reports\/npe\/\n {2}reports: reports\/npe\/1.txt/);
  assert.equal(t.checks.length, 0);
  await assert.rejects(crashFolderTask(ws, '../elsewhere'), (e: unknown) => e instanceof BadInputError && /outside/.test(e.message));
  await assert.rejects(crashFolderTask(ws, 'missing'), /does not exist/);
  await assert.rejects(
    runTriage({ stateDir: path.join(ws, '.state'), task: 'crash-folder', crashes: 'reports', workspace: ws, approver: nobody }),
    (e: unknown) => e instanceof BadInputError && /recorded demo model only replays/.test(e.message),
  );
});

test('a new run saves the model it will use: the provider default when no name was set, never an empty name', async (tc) => {
  const ws = tempDir(tc, 'triage-own-');
  fs.mkdirSync(path.join(ws, 'reports', 'npe'), { recursive: true });
  fs.writeFileSync(path.join(ws, 'reports', 'npe', '1.txt'), 'TypeError');
  const task = await crashFolderTask(ws, 'reports');
  const store = new FileRunStore(path.join(tempDir(tc, 'triage-state-'), 'state'));
  const s = await newTriageState({ workspace: ws, model: { provider: 'anthropic' }, crashes: 'reports' }, task, store);
  assert.equal(s.config.model, DEFAULT_MODELS.anthropic);
  const o = await newTriageState({ workspace: ws, model: { provider: 'openai', model: 'llama3' }, crashes: 'reports' }, task, store);
  assert.equal(o.config.model, 'llama3');
});

test('crash groups left out at the start are not in the run; an unknown or every group is refused', async (tc) => {
  const ws = tempDir(tc, 'triage-own-');
  for (const g of ['npe', 'oom', 'tls']) {
    fs.mkdirSync(path.join(ws, 'reports', g), { recursive: true });
    fs.writeFileSync(path.join(ws, 'reports', g, '1.txt'), 'Error');
  }
  const t = await crashFolderTask(ws, 'reports', { leaveOut: ['oom'] });
  assert.deepEqual(
    t.groups.map((g) => g.cause),
    ['npe', 'tls'],
  );
  assert.deepEqual(
    t.crashGroups?.map((g) => g.cause),
    ['npe', 'tls'],
  );
  assert.doesNotMatch(t.prompt, /oom/);
  await assert.rejects(
    crashFolderTask(ws, 'reports', { leaveOut: ['nope'] }),
    (e: unknown) => e instanceof BadInputError && /No crash group "nope".*npe, oom, tls/.test(e.message),
  );
  await assert.rejects(
    crashFolderTask(ws, 'reports', { leaveOut: ['npe', 'oom', 'tls'] }),
    (e: unknown) => e instanceof BadInputError && /Every crash group/.test(e.message),
  );
});
