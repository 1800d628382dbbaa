/**
 * The checks judge a finished run: a run built by applying the main task's script
 * directly (its writes, patches and filings) passes every check, and each kind of bad
 * run fails the checks that should catch it, and only those.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { mainTask, type TaskSpec } from '../../../src/triage/tasks/catalog';
import { judge, type CheckResult, type JudgedRun } from '../../../src/triage/tasks/checks';
import { ScriptBuilder } from '../../../tools/authoring/script';
import { scripts } from '../../../tools/authoring/scripts';
import { applyScript } from '../../../tools/authoring/apply';
import { newState } from '../../../src/store/state';

const task: TaskSpec = mainTask();
const [G1, G2] = task.groups.map((g) => g.cause);

/** A finished run of the main task in a fresh temp folder, as a good run leaves it. */
async function finishedRun(t: { after(fn: () => Promise<void>): void }): Promise<JudgedRun> {
  const workspace = await fs.mkdtemp(path.join(os.tmpdir(), 'checks-test-'));
  t.after(() => fs.rm(workspace, { recursive: true, force: true }));
  await fs.cp(task.sample, workspace, { recursive: true });
  const b = new ScriptBuilder(task.sample);
  scripts[task.name](b);
  const applied = await applyScript(b.steps, workspace);
  const state = newState({
    runId: 'm1-test-run',
    task: task.name,
    config: { workspace, provider: 'recorded', model: 'claude-sonnet-4-5', keys: true },
    system: task.system,
    prompt: task.prompt,
  });
  state.phase = 'done';
  state.turns = b.steps.length;
  state.answer = applied.answer;
  state.files = applied.files;
  return { state, workspace, issues: applied.issues };
}

function failing(results: CheckResult[]): string[] {
  return results.filter((r) => !r.passed).map((r) => r.name);
}

function named(results: CheckResult[], name: string): CheckResult {
  const r = results.find((x) => x.name === name);
  assert.ok(r, `no check named ${name}`);
  return r;
}

test('a good run passes every check, one result per catalog check, in order', async (t) => {
  const results = await judge(task, await finishedRun(t));
  assert.deepEqual(
    results.map((r) => r.name),
    task.checkNames,
  );
  assert.deepEqual(
    failing(results),
    [],
    results
      .filter((r) => !r.passed)
      .map((r) => `${r.name}: ${r.detail}`)
      .join('\n'),
  );
  assert.match(named(results, `${G1}: regression test fails on the original code`).detail, /failed/);
});

test('a duplicate issue fails "no duplicate issues" and the group\'s "exactly one issue"', async (t) => {
  const run = await finishedRun(t);
  const first = run.issues[0];
  run.issues.push({ ...first, number: 4 });
  run.state.answer += ' Also #4.';
  const results = await judge(task, run);
  assert.deepEqual(failing(results).sort(), [`${G1}: exactly one issue filed`, 'no duplicate issues'].sort());
  assert.match(named(results, 'no duplicate issues').detail, new RegExp(`2 issues for ${G1} \\(#1, #4\\)`));
});

test('an issue whose cause is no crash group counts as a duplicate', async (t) => {
  const run = await finishedRun(t);
  run.issues.push({ number: 4, title: 'unrelated', body: 'nothing', cause: 'made-up-cause' });
  run.state.answer += ' #4';
  assert.deepEqual(failing(await judge(task, run)), ['no duplicate issues']);
});

test("a missing issue fails its group's issue checks", async (t) => {
  const run = await finishedRun(t);
  run.issues = run.issues.filter((i) => i.cause !== G2);
  assert.deepEqual(failing(await judge(task, run)), [`${G2}: exactly one issue filed`, `${G2}: the issue cites a crash report`]);
});

test('an issue body that cites no crash report of its group fails', async (t) => {
  const run = await finishedRun(t);
  run.issues[0] = { ...run.issues[0], body: 'It crashes sometimes.' };
  assert.deepEqual(failing(await judge(task, run)), [`${G1}: the issue cites a crash report`]);
});

test('a missing regression test fails written / fails-before / passes-after', async (t) => {
  const run = await finishedRun(t);
  const g = task.groups[0];
  await fs.rm(path.join(run.workspace, g.test));
  delete run.state.files![g.test];
  assert.deepEqual(failing(await judge(task, run)), [
    `${G1}: regression test written`,
    `${G1}: regression test fails on the original code`,
    `${G1}: regression test passes after the fix`,
  ]);
});

test('a regression test that passes on the original code fails "fails on the original code"', async (t) => {
  const run = await finishedRun(t);
  const g = task.groups[1];
  const body = "'use strict';\nconst { test } = require('node:test');\ntest('always fine', () => {});\n";
  await fs.writeFile(path.join(run.workspace, g.test), body);
  const { createHash } = await import('node:crypto');
  run.state.files![g.test] = { ...run.state.files![g.test], sha256: createHash('sha256').update(body).digest('hex'), size: body.length };
  const results = await judge(task, run);
  assert.deepEqual(failing(results), [`${G2}: regression test fails on the original code`]);
  assert.match(named(results, `${G2}: regression test fails on the original code`).detail, /passes on the original code too/);
});

test("a fix undone behind the run's back fails the suite, the ledger, passes-after and the fix check", async (t) => {
  const run = await finishedRun(t);
  const g = task.groups[0];
  await fs.copyFile(path.join(task.sample, g.file), path.join(run.workspace, g.file));
  const f = failing(await judge(task, run));
  assert.deepEqual(
    f.sort(),
    [
      'every written file is in the ledger and matches it',
      'the whole test suite passes',
      `${G1}: regression test passes after the fix`,
      `${G1}: the fix changes ${g.file}`,
    ].sort(),
  );
});

test('a file changed without the run writing it fails the ledger check', async (t) => {
  const run = await finishedRun(t);
  await fs.appendFile(path.join(run.workspace, 'README.md'), '\nedited by hand\n');
  const results = await judge(task, run);
  assert.deepEqual(failing(results), ['every written file is in the ledger and matches it']);
  assert.match(named(results, 'every written file is in the ledger and matches it').detail, /README\.md changed but is not in the ledger/);
});

test('a ledger path outside the workspace fails the ledger check', async (t) => {
  const run = await finishedRun(t);
  run.state.files!['../outside.js'] = { ...run.state.files![task.groups[0].file] };
  assert.match(named(await judge(task, run), 'every written file is in the ledger and matches it').detail, /outside the workspace/);
});

test('an edited crash report or existing test fails "untouched"', async (t) => {
  const run = await finishedRun(t);
  const report = (await fs.readdir(path.join(run.workspace, 'crashes', G1)))[0];
  await fs.rm(path.join(run.workspace, 'crashes', G1, report));
  const results = await judge(task, run);
  assert.deepEqual(failing(results), ['crash reports and existing tests untouched']);
  assert.match(named(results, 'crash reports and existing tests untouched').detail, new RegExp(`crashes/${G1}/${report.replace(/\./g, '\\.')} is missing`));
});

test('an answer that leaves out an issue number fails "names every issue"', async (t) => {
  const run = await finishedRun(t);
  run.state.answer = run.state.answer!.replace('#2', 'the second one').replace('#3', '#31');
  const results = await judge(task, run);
  assert.deepEqual(failing(results), ['the answer names every issue']);
  assert.match(named(results, 'the answer names every issue').detail, /#2, #3/);
});

test('a run that is not done fails "done with an answer"', async (t) => {
  const run = await finishedRun(t);
  run.state.phase = 'paused';
  assert.deepEqual(failing(await judge(task, run)), ['the run is done with an answer']);
});
