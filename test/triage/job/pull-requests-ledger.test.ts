/**
 * The run's ledger covers the files written in a cause's worktree (--pull-requests): a real git
 * repository with a bare remote as origin, GitHub's stand-in. The run writes the fix in the
 * cause's worktree and is killed right after commit_fix acts; the worktree's file is edited
 * behind its back; the same command again stops with the workspace-changed error naming the
 * worktree's file; Restore puts the agent's version back there and the run finishes. Review
 * Changes lists that file, with its version from before the run, and Undo puts that back.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTriage, type TriageRunOptions } from '../../../src/triage/job';
import { restoreAgentVersion } from '../../../src/triage/run-admin';
import { reviewChanges, undoRun } from '../../../src/triage/run-files';
import { WorkspaceChangedError } from '../../../src/core/errors';
import { TOOL_ACTED } from '../../../src/store/crash-points';
import { sha256Hex } from '../../../src/core/sha256';
import { SimulatedCrash } from '../../../src/sweep/simulated-crash';
import { startGitHubStandin } from '../../support/github-standin';
import { reply, ScriptModel } from '../../agent/support';
import { fixtureRepo } from '../../runners/fixture';
import { sh } from '../../git/support';

const REPO = 'octo-org/durations';
const CAUSE = 'total-type-error';
const yes = { approve: async () => 'approve' as const, resolve: async () => ({ answer: 'later' as const }) };
const FIXED = 'exports.total = (xs) => xs.reduce((a, b) => a + b, 0);\n';
const MINE = '// edited by hand in the worktree\n';

async function setup(t: TestContext): Promise<{ ws: string; state: string; o: TriageRunOptions; lives: { n: number }; model: ScriptModel }> {
  const gh = await startGitHubStandin({ repos: [REPO], prefix: '/api/v3' });
  t.after(() => gh.close());
  const ws = fixtureRepo(t, 'node');
  sh(ws, 'init', '--quiet', '--initial-branch=main');
  sh(ws, 'add', '-A');
  sh(ws, 'commit', '--quiet', '-m', 'first');
  const remote = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-remote-'));
  const state = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-pr-ledger-'));
  t.after(() => {
    fs.rmSync(remote, { recursive: true, force: true });
    fs.rmSync(state, { recursive: true, force: true });
  });
  sh(remote, 'init', '--quiet', '--bare', '--initial-branch=main');
  sh(ws, 'remote', 'add', 'origin', remote);
  sh(ws, 'push', '--quiet', 'origin', 'main');
  const model = new ScriptModel([
    reply(0, [['issue_file', { title: 'total crashes on an empty list', body: 'crashes/2025-06-04-worker-2.log', cause: CAUSE }]]),
    reply(1, [['write_file', { path: 'src/report.js', content: FIXED, cause: CAUSE }]]),
    reply(2, [['commit_fix', { cause: CAUSE, message: 'total: start the sum at 0' }]]),
    reply(3, [], 'Committed the fix.'),
  ]);
  const lives = { n: 0 };
  const o: TriageRunOptions = {
    stateDir: state,
    task: 'crash-folder',
    workspace: ws,
    crashes: 'crashes',
    model,
    approver: yes,
    trackerUrl: `github:${REPO}`,
    githubApiUrl: gh.url,
    githubToken: gh.token,
    pullRequests: {},
    crash: (p, d) => {
      if (lives.n === 1 && p === TOOL_ACTED && d?.tool === 'commit_fix') throw new SimulatedCrash(p);
    },
  };
  return { ws, state, o, lives, model };
}

/** The cause's worktree's copy of src/report.js (the one file of the run's ledger that is not the workspace's). */
function worktreeFile(state: string): string {
  const runs = fs.readdirSync(path.join(state, 'worktrees'));
  assert.equal(runs.length, 1);
  // Beside the worktree: its readiness record (src/deps/prepare.ts).
  const trees = fs
    .readdirSync(path.join(state, 'worktrees', runs[0]), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  assert.equal(trees.length, 1);
  return path.join(state, 'worktrees', runs[0], trees[0], 'src', 'report.js');
}

test('--pull-requests: a worktree file edited while the run was down stops the resume, naming it; Restore puts the agent version back and the run finishes', async (t) => {
  const { ws, state, o, lives, model } = await setup(t);
  lives.n = 1;
  await assert.rejects(runTriage(o), SimulatedCrash);
  const file = worktreeFile(state);
  assert.equal(fs.readFileSync(file, 'utf8'), FIXED);
  fs.writeFileSync(file, MINE);
  lives.n = 2;
  let runId = '';
  await assert.rejects(
    runTriage({ ...o, onRunOpened: (id) => (runId = id) }),
    (e: unknown) =>
      e instanceof WorkspaceChangedError &&
      e.changes.length === 1 &&
      e.changes[0].path === file.split(path.sep).join('/') &&
      e.changes[0].expected === sha256Hex(FIXED) &&
      e.changes[0].actual === sha256Hex(MINE) &&
      e.message.includes(file.split(path.sep).join('/')),
  );
  assert.equal(fs.readFileSync(file, 'utf8'), MINE, 'the stop changes nothing');
  const restored = await restoreAgentVersion(state, runId);
  assert.equal(fs.readFileSync(file, 'utf8'), FIXED, "the agent's version is back in the worktree");
  assert.equal(restored.kept.length, 1);
  assert.ok(restored.keptIn);
  assert.equal(fs.readFileSync(path.join(restored.keptIn, 'worktrees', CAUSE, 'src', 'report.js'), 'utf8'), MINE, "the person's version is kept");
  lives.n = 3;
  const done = await runTriage(o);
  assert.equal(done.result.phase, 'done');
  const branch = sh(ws, 'branch', '--list', 'triage/*', '--format=%(refname:short)');
  assert.equal(sh(ws, 'rev-list', '--count', `main..${branch}`), '1', 'one commit');
  assert.equal(sh(ws, 'show', `${branch}:src/report.js`) + '\n', FIXED);
  assert.equal(model.total, 4, 'no reply paid twice');
});

test('--pull-requests: Review Changes lists the worktree file with its version from before the run, and Undo puts that back in the worktree', async (t) => {
  const { ws, state, o } = await setup(t);
  const original = fs.readFileSync(path.join(ws, 'src', 'report.js'), 'utf8');
  const done = await runTriage(o);
  assert.equal(done.result.phase, 'done');
  const file = worktreeFile(state);
  const review = await reviewChanges(state, done.runId);
  assert.equal(review.files.length, 1);
  const f = review.files[0];
  assert.equal(f.path, file.split(path.sep).join('/'));
  assert.equal(f.status, 'as-written');
  assert.equal(f.before, sha256Hex(original), "the worktree's file as it was before the run (the base commit's)");
  assert.equal(f.worktree?.cause, CAUSE);
  assert.equal(f.worktree?.path, 'src/report.js');
  const undone = await undoRun(state, done.runId);
  assert.deepEqual(undone, { restored: [f.path], deleted: [] });
  assert.equal(fs.readFileSync(file, 'utf8'), original, 'put back in the worktree');
  assert.equal(fs.readFileSync(path.join(ws, 'src', 'report.js'), 'utf8'), original, "the user's checkout untouched");
  assert.equal(sh(ws, 'status', '--porcelain'), '', "the user's checkout: clean");
});
