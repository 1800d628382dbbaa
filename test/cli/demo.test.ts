/**
 * The chapter's demonstration through the real CLI: die right after the first code_patch
 * acts (SIGKILL), find phase tools and a marker for the patch, resume with --approve yes,
 * the ladder's lookup finds the patch applied, and the run finishes with every check passing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { triage, lastJson } from './support';
import { tempDir } from '../support/temp-dir';

interface RunJson {
  runId: string;
  phase: string;
  turns: number;
  restarts: number;
  modelCalls: number;
  usage: { inputTokens: number; outputTokens: number; dollars: number };
  checks: { passed: number; total: number; failed: string[] };
  issues: { number: number; cause: string; key?: string }[];
}
interface StatusJson {
  runs: { runId: string; phase: string; turns: number; unresolved: { tool: string; callId: string }[] }[];
}

test('crash after code_patch, resume, every check passes and one issue per group; the same command after done calls no model', (t) => {
  const state = tempDir(t, 'triage-demo-');
  const tasks = lastJson<{ tasks: { name: string; main: boolean; groups: string[]; checks: number }[] }>(triage(['tasks', '--json']).stdout);
  const main = tasks.tasks.find((t) => t.main)!;
  assert.ok(main.checks >= 16, `main task has ${main.checks} checks`);

  const first = triage(['run', '--task', main.name, '--state', state, '--die-after', 'code_patch', '--approve', 'yes', '--json']);
  assert.equal(first.signal, 'SIGKILL', first.stderr);

  const status = lastJson<StatusJson>(triage(['status', '--state', state, '--json']).stdout);
  assert.equal(status.runs.length, 1);
  assert.equal(status.runs[0].phase, 'tools');
  assert.deepEqual(
    status.runs[0].unresolved.map((m) => m.tool),
    ['code_patch'],
  );
  const turnsAtCrash = status.runs[0].turns;

  const second = triage(['run', '--task', main.name, '--state', state, '--approve', 'yes', '--json']);
  assert.equal(second.status, 0, second.stderr);
  const r = lastJson<RunJson>(second.stdout);
  assert.equal(r.phase, 'done');
  assert.equal(r.restarts, 1);
  assert.match(second.stderr, /ladder for code_patch .*lookup -> done/);
  assert.equal(r.checks.passed, r.checks.total, `failed: ${r.checks.failed.join(', ')}`);
  assert.equal(r.checks.total, main.checks);
  // The saved replies were not paid again: this process asked only for the turns after the crash.
  assert.equal(r.modelCalls, r.turns - turnsAtCrash);
  const causes = r.issues.map((i) => i.cause).sort();
  assert.deepEqual(causes, [...main.groups].sort());

  const listed = lastJson<{ issues: { cause: string; key?: string }[] }>(triage(['tracker', 'list', '--state', state, '--json']).stdout);
  assert.equal(listed.issues.length, main.groups.length);
  assert.ok(listed.issues.every((i) => typeof i.key === 'string' && i.key.length === 32));

  // The same command again after done: the saved answer and results, no model call, nothing filed.
  for (const extra of [[], ['--workspace', path.join(state, 'workspaces', r.runId)]]) {
    const again = triage(['run', '--task', main.name, '--state', state, ...extra, '--approve', 'yes', '--json']);
    assert.equal(again.status, 0, again.stderr);
    const a = lastJson<RunJson & { finishedBefore: boolean }>(again.stdout);
    assert.equal(a.runId, r.runId, 'the same run, not a new one');
    assert.equal(a.modelCalls, 0, 'no model call for a done run');
    assert.equal(a.finishedBefore, true);
    assert.deepEqual([a.phase, a.turns, a.restarts, a.usage], [r.phase, r.turns, r.restarts, r.usage], 'nothing ran: turns, restarts and spend as saved');
    assert.equal(a.checks.passed, a.checks.total);
    assert.deepEqual(
      a.issues.map((i) => i.number),
      r.issues.map((i) => i.number),
    );
  }
  const human = triage(['run', '--task', main.name, '--state', state, '--approve', 'yes']);
  assert.match(human.stdout, /already finished: its saved result, no model call; --new starts another run/);
  assert.equal(
    lastJson<{ issues: unknown[] }>(triage(['tracker', 'list', '--state', state, '--json']).stdout).issues.length,
    main.groups.length,
    'nothing filed again',
  );
  const runs = lastJson<StatusJson>(triage(['status', '--state', state, '--json']).stdout).runs;
  assert.equal(runs.length, 1, 'no second run was started');
});
