/**
 * The whole Sentry -> pull request flow on one ecosystem's fixture repository (test/fixtures/
 * ecosystems/<name>), through the real CLI, with the repository's real dependencies:
 *
 * 1. the fixture is copied, committed and pushed to a real bare remote; the developer's own
 *    set-up runs in that checkout (`install`: npm ci, a venv, go mod download ... from the
 *    registries, which also fills the package manager's cache);
 * 2. each cause's crash is produced by running the buggy code there, and its stack trace, with
 *    the checkout's path replaced by the production path, is the Sentry stand-in's issue;
 * 3. a scripted model takes the flow per cause: an issue, the regression test written in the
 *    cause's worktree, run_tests (it must fail), the fix, run_tests (it must pass), the commit,
 *    the pull request, the Sentry comment;
 * 4. the CLI is SIGKILLed (its process group: an install under way dies with it) at seeded points
 *    and run again until it exits 0;
 * 5. the end: one issue, branch, commit, pull request and Sentry comment per cause; what the model
 *    saw of run_tests was a failure before the fix and a pass after it; a fresh clone of the bare
 *    remote at each pull request's branch, set up as the developer did, passes the repository's
 *    own full test command, and fails it with the fix taken out; the user's checkout is byte for
 *    byte as it was.
 *
 * `TRIAGE_KILL_SEED` replays a seed.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test, type TestContext } from 'node:test';
import { lastJson, triage } from '../support';
import { expectEachCause, sh, type Flow, type Life } from '../sentry-pr-setup';
import { Rng } from '../../../tools/rng';
import { startFlowOn } from './flow-setup';
import { crashIssue, type CrashLanguage } from './crash-frames';
import type { Turn } from '../../support/turn-model';

export interface EcosystemCause {
  /** The cause's name (the crash group's), e.g. 'parse-price-type-error'. */
  cause: string;
  /** The crash: a command run in the set-up checkout that dies of the bug (an uncaught error, a traceback, a panic). */
  crash: { command: string[]; cwd?: string; language: CrashLanguage };
  /** How many events Sentry counted (orders the causes: the top ones are triaged). */
  events: number;
  /** The regression test the model writes in the cause's worktree (a path relative to the repository root, and its text). */
  test: { file: string; content: string };
  /** The fix: the whole new text of one file. */
  fix: { file: string; content: string; what: string };
}

export interface Ecosystem {
  /** The fixture's folder name under test/fixtures/ecosystems, e.g. 'npm-jest'. */
  name: string;
  /** Where production runs it (Sentry's frames have this instead of the checkout's path), e.g. '/srv/prices'. */
  appRoot: string;
  /**
   * The developer's set-up of a clone, as its README would say (`npm ci`, `python3 -m venv .venv`,
   * `go mod download`): real installs from the registries; run in the user's checkout before the
   * run and in each fresh clone of the remote after it. Leaves no tracked file changed.
   */
  install(dir: string): void;
  /** The repository's own full test command (run in a fresh clone at a pull request's branch). */
  suite: string[];
  /** The environment the CLI and the installs get (e.g. corepack's registry). */
  env?: NodeJS.ProcessEnv;
  causes: EcosystemCause[];
  /** Extra run flags (e.g. `--test-command`). */
  runArgs?: string[];
  /** The ecosystem's own checks of the end, after the common ones (e.g. where a monorepo's tests ran and what was installed). */
  verify?(end: { flow: Flow; runId: string; why: string }): void;
}

/** The Sentry stand-in's id of the i-th cause's issue. */
const sentryIdOf = (i: number): string => String(201 + i);

/** The run's one cause worktree, as `triage worktrees --json` lists it, and the one step that made it ready. */
export function oneWorktreeReady(flow: Flow, runId: string, why: string): { wt: string; step: string } {
  const listed = lastJson<{ runs: { runId: string; worktrees: string[]; ready: Record<string, string[]> }[] }>(
    triage(['worktrees', '--state', flow.state, '--json']).stdout,
  ).runs.find((r) => r.runId === runId);
  assert.ok(listed, `the run's worktrees are listed ${why}`);
  assert.equal(listed.worktrees.length, 1, `one worktree ${why}`);
  const wt = listed.worktrees[0];
  const steps = listed.ready[wt];
  assert.equal(steps.length, 1, `one step made the worktree ready ${why}: ${JSON.stringify(steps)}`);
  return { wt, step: steps[0] };
}

/** Killed lives: each resumes the run, gets some way further and is killed again. */
const KILLED_LIVES = 3;

/** The model's turns per cause, in the flow's order; then the answer. */
export function scriptFor(eco: Ecosystem): Turn[] {
  const turns: Turn[] = [];
  for (const c of eco.causes) {
    turns.push(
      { tool: 'issue_file', args: { title: `${c.cause}: crashes on ${c.fix.what}`, body: `Sentry issue for ${c.cause}.`, cause: c.cause } },
      { tool: 'write_file', args: { path: c.test.file, content: c.test.content, cause: c.cause } },
      { tool: 'run_tests', args: { files: [c.test.file], cause: c.cause } },
      { tool: 'write_file', args: { path: c.fix.file, content: c.fix.content, cause: c.cause } },
      { tool: 'run_tests', args: { files: [c.test.file], cause: c.cause } },
      { tool: 'commit_fix', args: { cause: c.cause, message: `Fix ${c.cause}: handle ${c.fix.what}` } },
      { tool: 'pull_request', args: { cause: c.cause, title: `Fix ${c.cause}`, body: `Handles ${c.fix.what}.` } },
      { tool: 'sentry_comment', args: { cause: c.cause } },
    );
  }
  turns.push({ text: `${eco.causes.length} cause(s): an issue, a tested fix on its own branch, a pull request and a Sentry comment each.` });
  return turns;
}

/** The test of one ecosystem: the flow with kills, then every check of the end. */
export function ecosystemFlowTest(eco: Ecosystem): void {
  const seed = Number(process.env.TRIAGE_KILL_SEED ?? 20261206);
  test(
    `${eco.name}: Sentry -> a tested fix -> pull request, SIGKILLed at seeded points (seed ${seed}); the PR's branch passes the suite`,
    { timeout: 600_000 },
    async (t) => {
      const f = await startFlowOn(t, eco, {
        issues: (checkout) => eco.causes.map((c, i) => crashIssue(checkout, eco.appRoot, c, sentryIdOf(i))),
        script: scriptFor(eco),
      });
      const before = f.checkout();
      const lives = await liveUntilDone(f, eco, new Rng(seed));
      t.diagnostic(`lives: ${lives.seen.join(', ')}`);
      assert.ok(
        lives.seen.some((l) => l.startsWith('killed')),
        `at least one life was killed mid-run (${lives.seen.join(', ')})`,
      );
      const out = lastJson<{ runId: string; phase: string }>(lives.last.stdout);
      assert.equal(out.phase, 'done', lives.last.stderr);
      const why = `(${lives.seen.join(', ')})`;
      const branches = expectOnePerCause(f, eco, out.runId, why);
      expectTestsFailedThenPassed(f, eco, why);
      eco.verify?.({ flow: f, runId: out.runId, why });
      for (const c of eco.causes) expectSuitePasses(t, f, eco, c, branches.get(c.cause)!);
      assert.equal(f.checkout(), before, "the user's checkout is byte for byte as it was");
      const runs = lastJson<{ runs: { runId: string }[] }>(triage(['status', '--state', f.state, '--json']).stdout).runs;
      assert.deepEqual(
        runs.map((r) => r.runId),
        [out.runId],
        'one run: every life after a kill resumed it',
      );
    },
  );
}

/** Lives of the CLI, the first KILLED_LIVES SIGKILLed a seeded number of progress lines in, until one exits 0. */
async function liveUntilDone(f: Flow, eco: Ecosystem, random: Rng): Promise<{ last: Life; seen: string[] }> {
  // A life prints a few lines before it acts, then about two a call (eight calls a cause) and the worktree's set-up:
  // killing 3 to that many lines in reaches the installs, the tests and every side effect.
  const most = 6 + 18 * eco.causes.length;
  const seen: string[] = [];
  let last: Life | undefined;
  for (let n = 0; n < 10; n++) {
    const at = n < KILLED_LIVES ? 3 + Math.floor(random.next() * (most - 2)) : undefined;
    last = await f.life(f.args(), at === undefined ? {} : { killAtLine: at });
    seen.push(last.signal ? `killed at line ${at} "${last.killedAt?.trim()}"` : `exit ${last.code}`);
    if (last.signal === 'SIGKILL') continue;
    assert.equal(last.code, 0, `life ${n} (${seen.join(', ')}): ${last.stderr}`);
    return { last, seen };
  }
  assert.fail(`the run never finished: ${seen.join(', ')}`);
}

/** Per cause the end expectEachCause checks, and a commit that holds the test and the fix only; returns each cause's branch. */
function expectOnePerCause(f: Flow, eco: Ecosystem, runId: string, why: string): Map<string, string> {
  const causes = eco.causes.map((c, i) => ({ cause: c.cause, sentryId: sentryIdOf(i), files: [c.fix.file, c.test.file].sort() }));
  const ends = expectEachCause(f, causes, runId, why, (c, end) => {
    const changed = sh(f.ws, 'show', '--name-only', '--format=', end.commit).split('\n').filter(Boolean).sort();
    assert.deepEqual(changed, c.files, `the commit holds the test and the fix, and nothing installed ${why}`);
  });
  return new Map([...ends].map(([cause, end]) => [cause, end.branch]));
}

/** What the model was told of run_tests, per cause: failing before the fix, passing after it. */
function expectTestsFailedThenPassed(f: Flow, eco: Ecosystem, why: string): void {
  const runs = f.model.results().filter((r) => /^tests: /.test(r.text));
  assert.equal(runs.length, 2 * eco.causes.length, `two run_tests results per cause ${why}: ${JSON.stringify(runs)}`);
  for (const [i, c] of eco.causes.entries()) {
    const [beforeFix, afterFix] = [runs[2 * i].text, runs[2 * i + 1].text];
    assert.match(beforeFix, /^tests: \d+ passed, [1-9]\d* failed/, `${c.cause}: the regression test fails before the fix: ${beforeFix}`);
    assert.match(afterFix, /^tests: [1-9]\d* passed, 0 failed/, `${c.cause}: and passes after it: ${afterFix}`);
  }
}

/** A fresh clone of the remote at the branch, set up as the developer did: its suite passes; with the fix taken out it fails. */
function expectSuitePasses(t: TestContext, f: Flow, eco: Ecosystem, c: EcosystemCause, branch: string): void {
  const dir = fs.mkdtempSync(path.join(path.dirname(f.ws), `clone-${c.cause}-`));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const clone = spawnSync('git', ['clone', '--quiet', '--branch', branch, f.remote, dir], { encoding: 'utf8' });
  assert.equal(clone.status, 0, clone.stderr);
  eco.install(dir);
  // Without this test runner's NODE_TEST_CONTEXT, which makes a nested node --test report to it and exit 0.
  const { NODE_TEST_CONTEXT: _ctx, ...inherited } = process.env;
  const env = { ...inherited, ...eco.env };
  const suite = spawnSync(eco.suite[0], eco.suite.slice(1), { cwd: dir, encoding: 'utf8', env, timeout: 300_000 });
  assert.equal(suite.status, 0, `${eco.suite.join(' ')} at ${branch} in a fresh clone:\n${suite.stdout}\n${suite.stderr}`);
  sh(dir, 'checkout', 'origin/main', '--', c.fix.file);
  const unfixed = spawnSync(eco.suite[0], eco.suite.slice(1), { cwd: dir, encoding: 'utf8', env, timeout: 300_000 });
  assert.notEqual(unfixed.status, 0, `the suite fails at ${branch} with ${c.fix.file} as on main (the regression test catches the bug):\n${unfixed.stdout}`);
}
