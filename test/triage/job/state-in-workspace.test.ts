/**
 * `--state .triage` inside the workspace: the job tells the tools where its state folder is,
 * so the agent can neither list it nor replace the embedded tracker's issues.json.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { hiddenFromTools, runTriage } from '../../../src/triage/job';
import { FileRunStore } from '../../../src/store/files/file-run-store';
import { readRun } from '../../../src/store/files/checkpoint';
import { reply, ScriptModel, Person, tmp } from '../../agent/support';

test("a run whose state folder is inside its workspace: list_files does not show it, write_file cannot replace the tracker's issues", async (t) => {
  const ws = tmp('triage-state-in-ws-');
  t.after(() => fs.rmSync(ws, { recursive: true, force: true }));
  fs.mkdirSync(path.join(ws, 'reports', 'npe'), { recursive: true });
  fs.writeFileSync(path.join(ws, 'reports', 'npe', '1.txt'), 'TypeError\n');
  const stateDir = path.join(ws, '.triage');
  const trackerFile = path.join(stateDir, 'tracker', 'issues.json');
  const model = new ScriptModel([
    reply(0, [
      ['list_files', {}],
      ['write_file', { path: '.triage/tracker/issues.json', content: '{"version":1,"issues":[]}' }],
      ['read_file', { path: '.triage/tracker/issues.json' }],
    ]),
    reply(1, [], 'done'),
  ]);
  const out = await runTriage({ stateDir, task: 'crash-folder', crashes: 'reports', workspace: ws, model, approver: new Person() });
  assert.equal(out.result.phase, 'done');
  const state = await readRun(stateDir, out.runId);
  const results = state.messages.flatMap((m) => (m.role === 'tool' ? m.results : []));
  assert.equal(results.length, 3);
  const [list, write, read] = results;
  assert.equal(list.content, '.: 1 files, 2 folders; nothing left out\nreports/\nreports/npe/\nreports/npe/1.txt', 'the state folder is not listed');
  assert.equal(write.isError, true);
  assert.match(write.content, /^write_file: path "\.triage\/tracker\/issues\.json" is in the run's state folder/);
  assert.equal(read.isError, true);
  assert.match(read.content, /state folder/);
  const tracker = fs.existsSync(trackerFile) ? fs.readFileSync(trackerFile, 'utf8') : '';
  assert.notEqual(tracker, '{"version":1,"issues":[]}', "the tracker file is not the agent's");
});

test("the folders hidden from the tools: the file store's state folder and its workspaces folder", () => {
  const store = new FileRunStore('/tmp/x/.triage');
  assert.deepEqual(hiddenFromTools(store), [path.resolve('/tmp/x/.triage'), path.join(path.resolve('/tmp/x/.triage'), 'workspaces')]);
});
