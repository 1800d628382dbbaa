/**
 * A crash-folder run with --pull-requests, end to end through runTriage: the workspace is a git
 * repository with a bare remote as origin, GitHub is the stand-in. The run files the cause's
 * issue, writes the fix in the cause's worktree, commits it, pushes and opens the pull request;
 * it is killed (a simulated crash) right after the pull request is opened and before its result
 * is saved, and the same command again finishes with one issue, one commit and one pull request.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTriage, type TriageRunOptions } from '../../../src/triage/job';
import { TOOL_ACTED } from '../../../src/store/crash-points';
import { SimulatedCrash } from '../../../src/sweep/simulated-crash';
import { startGitHubStandin } from '../../support/github-standin';
import { reply, ScriptModel } from '../../agent/support';
import { fixtureRepo } from '../../runners/fixture';
import { sh } from '../../git/support';

const REPO = 'octo-org/durations';
const CAUSE = 'total-type-error';
const yes = { approve: async () => 'approve' as const, resolve: async () => ({ answer: 'later' as const }) };
const FIXED = 'exports.total = (xs) => xs.reduce((a, b) => a + b, 0);\n';

test('--pull-requests: killed right after the pull request is opened, the rerun finds it: one issue, one commit, one pull request', async (t) => {
  const gh = await startGitHubStandin({ repos: [REPO], prefix: '/api/v3' });
  t.after(() => gh.close());
  const ws = fixtureRepo(t, 'node');
  sh(ws, 'init', '--quiet', '--initial-branch=main');
  sh(ws, 'add', '-A');
  sh(ws, 'commit', '--quiet', '-m', 'first');
  const remote = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-remote-'));
  const state = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-pr-state-'));
  t.after(() => {
    fs.rmSync(remote, { recursive: true, force: true });
    fs.rmSync(state, { recursive: true, force: true });
  });
  sh(remote, 'init', '--quiet', '--bare', '--initial-branch=main');
  sh(ws, 'remote', 'add', 'origin', remote);
  sh(ws, 'push', '--quiet', 'origin', 'main');
  fs.appendFileSync(path.join(ws, 'src', 'cli.js'), '// my own unsaved work\n'); // a dirty checkout does not matter
  const model = new ScriptModel([
    reply(0, [['issue_file', { title: 'total crashes on an empty list', body: 'crashes/2025-06-04-worker-2.log', cause: CAUSE }]]),
    reply(1, [['write_file', { path: 'src/report.js', content: FIXED, cause: CAUSE }]]),
    reply(2, [['commit_fix', { cause: CAUSE, message: 'total: start the sum at 0' }]]),
    reply(3, [['pull_request', { cause: CAUSE, title: 'total: start the sum at 0', body: 'The crash: an empty list.' }]]),
    reply(4, [], 'Opened the pull request.'),
  ]);
  let lives = 0;
  const events: string[] = [];
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
      if (lives === 1 && p === TOOL_ACTED && d?.tool === 'pull_request') throw new SimulatedCrash(p);
    },
    onEvent: (e) => e.type === 'ladder' && events.push(`${e.call.name} ${e.step}:${e.outcome}`),
  };
  lives++;
  await assert.rejects(runTriage(o), SimulatedCrash);
  assert.equal(gh.pulls(REPO).length, 1, 'the pull request was opened before the kill');
  lives++;
  const done = await runTriage(o);
  assert.equal(done.result.phase, 'done');
  assert.deepEqual(events, ['pull_request lookup:done'], "the rerun's lookup found the pull request");
  const pulls = gh.pulls(REPO);
  assert.equal(pulls.length, 1, 'one pull request');
  assert.equal(gh.issues(REPO).filter((i) => !i.pullRequest).length, 1, 'one issue');
  const branch = pulls[0].head;
  assert.match(branch, /^triage\/total-type-error-[a-z0-9]{8}$/);
  assert.equal(pulls[0].draft, true, 'a draft by default');
  assert.match(pulls[0].body ?? '', /The crash: an empty list\.\n\nFixes #1\n/);
  const commits = sh(ws, 'rev-list', `main..${branch}`).split('\n').filter(Boolean);
  assert.equal(commits.length, 1, 'one commit');
  assert.equal(sh(remote, 'rev-parse', `refs/heads/${branch}`), commits[0], 'pushed');
  assert.equal(sh(ws, 'show', `${branch}:src/report.js`) + '\n', FIXED);
  assert.equal(sh(ws, 'status', '--porcelain'), 'M src/cli.js', "the user's checkout: only their own change");
  assert.equal(sh(ws, 'symbolic-ref', '--short', 'HEAD'), 'main');
  assert.ok(fs.existsSync(path.join(state, 'worktrees', done.runId)), 'the worktrees are in the state folder');
  assert.equal(model.total, 5, 'no reply paid twice');
});
