/**
 * A cause's worktree that cannot get its dependencies, end to end through the real CLI (npm, a
 * bare remote, the stand-ins): the run stops at the call that needed the worktree, saved, with
 * exit 20 and the error naming what is wrong; the same command again does nothing twice; the
 * user's checkout keeps its bytes. With the cause fixed (the cache warmed), the same command
 * finishes the same run: one of each per cause. The repository is the node-test fixture.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { lastJson, triage } from '../support';
import { EXIT } from '../../../src/cli/exitcodes';
import { expectEachCause, runIdOf, startFlowWith, type Flow } from '../sentry-pr-setup';
import { tempDir } from '../../support/temp-dir';
import { crashIssue } from './crash-frames';
import { FIXTURES } from './flow-setup';
import { scriptFor } from './flow';
import { NODE_TEST, npmCi } from './node-test';

const CAUSE = NODE_TEST.causes[0];
const SENTRY_ID = '201';

function flow(t: Parameters<typeof startFlowWith>[0], fixture: string, prepare: (ws: string) => void, runArgs: string[] = []): Promise<Flow> {
  return startFlowWith(t, {
    fixture,
    repo: 'acme/node-test',
    issues: (checkout) => [crashIssue(checkout, NODE_TEST.appRoot, CAUSE, SENTRY_ID)],
    script: scriptFor(NODE_TEST),
    sentryLimit: 1,
    prepare,
    runArgs,
  });
}

/** The run as saved: its phase and the tools whose calls have a marker but no result. */
function saved(f: Flow, runId: string): { phase: string; unfinished: string[] } {
  const s = JSON.parse(triage(['show', '--state', f.state, '--run', runId, '--json']).stdout) as {
    phase: string;
    attempts?: Record<string, { tool: string; callId: string }>;
    results?: Record<string, unknown>;
  };
  return {
    phase: s.phase,
    unfinished: Object.values(s.attempts ?? {})
      .filter((m) => s.results?.[m.callId] === undefined)
      .map((m) => m.tool),
  };
}

test(
  'a lock file out of step with package.json: exit 20 naming package-lock.json, saved at the write that needed the worktree; again: the same, nothing filed twice',
  { timeout: 300_000 },
  async (t) => {
    const fixture = path.join(tempDir(t, 'triage-deps-stop-fixture-'), 'node-test');
    fs.cpSync(path.join(FIXTURES, 'node-test'), fixture, { recursive: true });
    const pkg = path.join(fixture, 'package.json');
    const j = JSON.parse(fs.readFileSync(pkg, 'utf8')) as { dependencies: Record<string, string> };
    j.dependencies['is-number'] = '7.0.0'; // added to package.json, and the lock file not updated
    fs.writeFileSync(pkg, JSON.stringify(j, null, 2) + '\n');
    // The developer installed anyway (npm install without writing the lock file), so the crash can be run.
    const f = await flow(t, fixture, (ws) => npm(ws, ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--prefer-offline']));
    const before = f.checkout();
    for (const n of [1, 2]) {
      const life = await f.life(f.args());
      assert.equal(life.code, EXIT.dependencies, `life ${n}: ${life.stderr}`);
      assert.match(life.stderr, /The lock file package-lock\.json is out of step with package\.json at the run's base commit \(npm refused/);
      assert.match(life.stderr, /start a new run \(--new\)/);
      const runId = runIdOf(life.stderr);
      assert.deepEqual(saved(f, runId), { phase: 'tools', unfinished: ['write_file'] }, `life ${n}: stopped at the write that needed the worktree`);
      assert.equal(f.gh.issues(f.repo).length, 1, `life ${n}: the issue filed before it, once`);
      assert.equal(f.gh.pulls(f.repo).length, 0);
      assert.equal(fs.existsSync(path.join(f.remote, 'push.log')), false, 'nothing pushed');
      assert.equal(f.checkout(), before, "the user's checkout keeps its bytes");
    }
  },
);

test(
  'the package not in the cache with --deps-network offline: exit 20 saying how to warm it; warmed, the same command finishes the same run',
  { timeout: 300_000 },
  async (t) => {
    const cold = tempDir(t, 'triage-deps-stop-cache-');
    const f = await flow(t, path.join(FIXTURES, 'node-test'), npmCi, ['--deps-network', 'offline']);
    const before = f.checkout();
    const first = await f.life(f.args(), { env: { npm_config_cache: cold } });
    assert.equal(first.code, EXIT.dependencies, first.stderr);
    assert.match(first.stderr, /not in npm's cache and could not be downloaded/);
    const runId = runIdOf(first.stderr);
    assert.deepEqual(saved(f, runId).unfinished, ['write_file']);
    assert.equal(f.checkout(), before);
    // The user's own cache holds ms (the checkout's npm ci filled it): the same command, offline still (the run keeps its choice), finishes.
    const done = await f.life(f.args());
    assert.equal(done.code, 0, done.stderr);
    const out = lastJson<{ runId: string; phase: string }>(done.stdout);
    assert.deepEqual([out.runId, out.phase], [runId, 'done'], 'the same run, finished');
    expectEachCause(f, [{ cause: CAUSE.cause, sentryId: SENTRY_ID }], runId, '');
    assert.equal(f.checkout(), before, "the user's checkout keeps its bytes");
  },
);

/** npm in dir, failing the test with its output. */
function npm(dir: string, args: string[]): void {
  const r = spawnSync('npm', args, { cwd: dir, encoding: 'utf8' });
  assert.equal(r.status, 0, `npm ${args.join(' ')}: ${r.stderr}`);
}
