/**
 * The editor's MCP servers: a run given the servers already read (`mcp`, the editor's setting
 * through logic/mcp-servers.ts, with VS Code's variables) uses their tools, saves their tools but
 * no file path, and on resume checks the servers it is given now: the same ones go on; changed
 * tools stop it (McpToolsChangedError); a server no longer configured is named with the setting.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { BadInputError, McpToolsChangedError } from '../../src/core/errors';
import { SimulatedCrash } from '../../src/sweep/simulated-crash';
import { readRun } from '../../src/store/files/checkpoint';
import { runTriage, type TriageRunOptions } from '../../src/triage/job';
import { MCP_SETTING_LABEL, mcpConfigOf } from '../../src/extension/logic/mcp-servers';
import type { McpConfig } from '../../src/mcp/config';
import { reply, ScriptModel } from '../agent/support';
import { CountingPerson, dieAfter, jsonLines, RECORDER_SERVER, world } from './support';

function editorConfig(dir: string, env: Record<string, string> = {}): McpConfig {
  const setting = { rec: { command: '${env:NODE_BIN}', args: [RECORDER_SERVER], env: { RECORD_FILE: '${workspaceFolder}/calls.jsonl', ...env } } };
  return mcpConfigOf([{ label: MCP_SETTING_LABEL, servers: setting }], { env: { NODE_BIN: process.execPath }, userHome: dir, workspaceFolder: dir });
}

test('a run with the editor-read servers calls their tools, saves the tools but no file, and resumes with the same servers', async (t) => {
  const w = world(t);
  const script = [reply(0, [['rec__create_record', { note: 'n1' }]]), reply(1, [], 'ok')];
  const person = new CountingPerson();
  const o = (mcp: McpConfig, crash?: TriageRunOptions['crash']): TriageRunOptions => ({
    stateDir: w.state,
    task: 'crash-folder',
    workspace: w.ws,
    crashes: 'crashes',
    model: new ScriptModel(script),
    approver: person,
    approvalTools: ['rec/create_record'],
    mcp,
    store: { sync: false },
    ...(crash ? { crash } : {}),
  });
  let runId = '';
  await assert.rejects(runTriage({ ...o(editorConfig(w.dir), dieAfter('rec__create_record')), onRunOpened: (id) => (runId = id) }), SimulatedCrash);
  assert.deepEqual(
    person.approvals.map((a) => a.tool),
    ['rec__create_record'],
    'approval.tools named it server/tool',
  );
  const saved = await readRun(w.state, runId);
  assert.deepEqual(
    saved.config.mcp?.map((s) => s.server),
    ['rec'],
  );
  assert.equal(saved.config.options?.mcpConfig, undefined, 'no file path is saved');
  assert.equal(jsonLines(path.join(w.dir, 'calls.jsonl')).length, 1, '${workspaceFolder} was filled in');

  // After a window reload: the servers are read again; a changed server stops the run before anything runs.
  const changed = await runTriage(o(editorConfig(w.dir, { VARIANT: 'changed' }))).then(
    () => assert.fail('it resumed'),
    (x: unknown) => x,
  );
  assert.ok(changed instanceof McpToolsChangedError, String(changed));
  const gone = await runTriage(o(mcpConfigOf([{ label: MCP_SETTING_LABEL, servers: {} }], { env: {}, userHome: w.dir }))).then(
    () => assert.fail('it resumed'),
    (x: unknown) => x,
  );
  assert.ok(gone instanceof BadInputError && gone.message.includes('"rec"') && gone.message.includes(MCP_SETTING_LABEL), String(gone));

  const done = await runTriage(o(editorConfig(w.dir)));
  assert.equal(done.runId, runId);
  assert.equal(done.result.phase, 'done');
});

test('a new run with no editor server uses none and saves none', async (t) => {
  const w = world(t);
  const done = await runTriage({
    stateDir: w.state,
    task: 'crash-folder',
    workspace: w.ws,
    crashes: 'crashes',
    model: new ScriptModel([reply(0, [], 'ok')]),
    approver: new CountingPerson(),
    mcp: { file: MCP_SETTING_LABEL, servers: {} },
    store: { sync: false },
  });
  assert.equal(done.result.phase, 'done');
  assert.equal((await readRun(w.state, done.runId)).config.mcp, undefined);
});
