/**
 * Bad input to the Sentry -> pull request flow, end to end through the real CLI with a real bare
 * remote (and the user's checkout dirty throughout): a Sentry token that may not comment (403), a
 * GitHub token that may not open pull requests (403 "Resource not accessible by integration"), a
 * cause's branch that exists with someone else's commit, a remote whose pre-receive hook refuses
 * the push. Each stops the run with a message naming what is wrong and what to do, and its exit
 * status; the run is saved with the call's marker; nothing is pushed or opened twice; the user's
 * checkout keeps its bytes; after the fix the same command finishes with one of each per cause.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { lastJson, triage } from './support';
import { EXIT } from '../../src/cli/exitcodes';
import {
  CAUSES,
  READ_ONLY_SENTRY_TOKEN,
  REPO,
  expectNoToken,
  expectOnePerCause,
  pushesOf,
  runIdOf,
  sh,
  startFlow,
  type Flow,
  type Life,
} from './sentry-pr-setup';

/** The run is saved where it stopped: phase tools, the marker of a `tool` call, no result for it. */
function expectStoppedAt(f: Flow, runId: string, tool: string): void {
  const saved = JSON.parse(triage(['show', '--state', f.state, '--run', runId, '--json']).stdout) as {
    phase: string;
    attempts?: Record<string, { tool: string; callId: string }>;
    results?: Record<string, unknown>;
  };
  assert.equal(saved.phase, 'tools');
  const markers = Object.values(saved.attempts ?? {}).filter((m) => m.tool === tool);
  assert.equal(markers.length, 1, `the ${tool} call's marker is saved`);
  assert.equal(saved.results?.[markers[0].callId], undefined, 'and no result for it');
}

/** The CLI's error line ("triage: ..."), shown in the test's output. */
function said(stderr: string): string {
  return stderr.split('\n').find((l) => l.startsWith('triage: ')) ?? '(no error line)';
}

/** After the fix: the same command finishes the same run, one of each per cause. */
async function finish(f: Flow, runId: string, before: string): Promise<Life> {
  const done = await f.life(f.args());
  assert.equal(done.code, 0, done.stderr);
  const out = lastJson<{ runId: string; phase: string }>(done.stdout);
  assert.deepEqual([out.runId, out.phase], [runId, 'done'], 'the same run, finished');
  expectOnePerCause(f, runId, before);
  return done;
}

test('a Sentry token that may not comment (403): exit 16 naming event:write; the run resumes with a token that may', async (t) => {
  const f = await startFlow(t);
  const before = f.checkout();
  const first = await f.life(f.args(), { env: { SENTRY_AUTH_TOKEN: READ_ONLY_SENTRY_TOKEN } });
  assert.equal(first.code, EXIT.sentryAuth, first.stderr);
  t.diagnostic(said(first.stderr));
  assert.match(first.stderr, /Sentry answered 403 .*comment.*event:write/);
  assert.match(first.stderr, /run the same command again to resume it/);
  const runId = runIdOf(first.stderr);
  expectStoppedAt(f, runId, 'sentry_comment');
  assert.equal(f.sentry.comments(CAUSES[0].sentryId).length, 0, 'nothing was posted');
  assert.equal(f.gh.pulls(REPO).length, CAUSES.length, 'the pull requests stay');
  assert.equal(f.checkout(), before);
  await finish(f, runId, before);
  expectNoToken(f.state);
});

test('a GitHub token that may not open pull requests (403): exit 11 naming the permission; the rerun pushes nothing again and opens one each', async (t) => {
  const f = await startFlow(t);
  const before = f.checkout();
  f.gh.script('POST', /\/pulls$/, {
    kind: 'status',
    status: 403,
    body: { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest/pulls/pulls#create-a-pull-request' },
  });
  const first = await f.life(f.args());
  assert.equal(first.code, EXIT.tracker, first.stderr);
  t.diagnostic(said(first.stderr));
  assert.match(
    first.stderr,
    /GitHub answered 403 for acme\/api: the token may not open pull requests there .*pull requests: write.*Resource not accessible by integration/i,
  );
  const runId = runIdOf(first.stderr);
  expectStoppedAt(f, runId, 'pull_request');
  assert.equal(f.gh.pulls(REPO).length, 0, 'nothing opened');
  const branch = `triage/${CAUSES[0].cause}-${runId.split('-').pop()}`;
  assert.equal(pushesOf(f, branch).length, 1, 'the branch was pushed before GitHub refused the pull request');
  assert.equal(f.checkout(), before);
  await finish(f, runId, before); // expectOnePerCause: each branch pushed once, though its pull_request ran twice
});

test("a cause's branch that exists with someone else's commit: exit 14 naming the branch; nothing changes; after renaming it the run finishes", async (t) => {
  const f = await startFlow(t);
  const before = f.checkout();
  const first = await f.life(f.args('--die-after', 'issue_file'));
  assert.equal(first.signal, 'SIGKILL', first.stderr);
  const runId = runIdOf(first.stderr);
  const branch = `triage/${CAUSES[0].cause}-${runId.split('-').pop()}`;
  // Someone's branch of that name, made without touching the checkout: a commit of their own on main.
  const mine = sh(f.ws, 'commit-tree', 'main^{tree}', '-p', 'main', '-m', 'my own work on this branch');
  sh(f.ws, 'update-ref', `refs/heads/${branch}`, mine);
  const second = await f.life(f.args());
  assert.equal(second.code, EXIT.git, second.stderr);
  t.diagnostic(said(second.stderr));
  assert.ok(second.stderr.includes(`The branch ${branch} exists already with commits that this run did not make`), second.stderr);
  assert.match(second.stderr, /Nothing was changed: rename or delete that branch \(git branch -m triage\/\S+ OTHER\), then run the same command again/);
  expectStoppedAt(f, runId, 'write_file');
  assert.equal(sh(f.ws, 'rev-parse', branch), mine, 'their branch is as it was');
  assert.deepEqual(pushesOf(f, branch), [], 'nothing pushed');
  assert.equal(f.checkout(), before);
  sh(f.ws, 'branch', '-m', branch, 'my-branch');
  await finish(f, runId, before);
  assert.equal(sh(f.ws, 'rev-parse', 'my-branch'), mine, 'their commit is kept under its new name');
});

test('a remote that refuses the push (pre-receive hook): exit 14 with what the remote said; nothing opened; after the fix, one push and one pull request each', async (t) => {
  const f = await startFlow(t);
  const before = f.checkout();
  const hook = path.join(f.remote, 'hooks', 'pre-receive');
  fs.writeFileSync(hook, '#!/bin/sh\necho "pushes to triage/* are closed on this remote" >&2\nexit 1\n', { mode: 0o755 });
  const first = await f.life(f.args());
  assert.equal(first.code, EXIT.git, first.stderr);
  t.diagnostic(said(first.stderr));
  const runId = runIdOf(first.stderr);
  const branch = `triage/${CAUSES[0].cause}-${runId.split('-').pop()}`;
  assert.ok(first.stderr.includes(`The remote origin refused the push of ${branch}`), first.stderr);
  assert.match(first.stderr, /pushes to triage\/\* are closed on this remote/, 'what the remote said');
  assert.match(first.stderr, /pre-receive hook declined/);
  assert.match(first.stderr, /Nothing was pushed and no pull request was opened; the commit stays on the local branch\./);
  expectStoppedAt(f, runId, 'pull_request');
  assert.equal(f.gh.pulls(REPO).length, 0);
  assert.deepEqual(pushesOf(f, branch), []);
  assert.throws(() => sh(f.remote, 'rev-parse', '--verify', `refs/heads/${branch}`), 'not on the remote');
  assert.equal(Number(sh(f.ws, 'rev-list', '--count', `main..${branch}`)), 1, 'the commit is kept');
  assert.equal(f.checkout(), before);
  const again = await f.life(f.args());
  assert.equal(again.code, EXIT.git, 'refused again while the hook refuses, and still nothing opened');
  assert.equal(f.gh.pulls(REPO).length, 0);
  fs.rmSync(hook);
  await finish(f, runId, before);
});
