/**
 * `triage run --crashes sentry:acme/api --tracker github:acme/api --pull-requests` through the
 * real CLI with a real bare remote, killed by SIGKILL (`--die-after TOOL`) right after commit_fix,
 * pull_request or sentry_comment acted for the first cause and before its result was saved: the
 * run is left in phase tools with that call's attempt marker; the same command again (without
 * --die-after) has the ladder's lookup find what the call did, and the run ends with one issue,
 * one commit on its branch, one pull request and one Sentry comment per cause, every model reply
 * paid once, the user's dirty checkout untouched, and the Sentry token in no file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lastJson, triage } from './support';
import { CAUSES, SCRIPT, expectNoToken, expectOnePerCause, runIdOf, sh, startFlow } from './sentry-pr-setup';

for (const tool of ['commit_fix', 'pull_request', 'sentry_comment']) {
  test(`--die-after ${tool}: killed with the effect made and not saved; the rerun's lookup finds it; one of each per cause`, async (t) => {
    const f = await startFlow(t);
    const before = f.checkout();
    const first = await f.life(f.args('--die-after', tool));
    assert.equal(first.signal, 'SIGKILL', `killed by --die-after: ${first.stderr}`);
    const runId = runIdOf(first.stderr);
    const saved = JSON.parse(triage(['show', '--state', f.state, '--run', runId, '--json']).stdout) as {
      phase: string;
      attempts?: Record<string, { tool: string }>;
      results?: Record<string, unknown>;
    };
    assert.equal(saved.phase, 'tools');
    const markers = Object.values(saved.attempts ?? {}).filter((m) => m.tool === tool);
    assert.equal(markers.length, 1, `the ${tool} call's marker is saved`);
    assert.equal(Object.keys(saved.results ?? {}).length, 0, 'and its result is not');
    const c = CAUSES[0];
    if (tool === 'commit_fix')
      assert.equal(Number(sh(f.ws, 'rev-list', '--count', `main..triage/${c.cause}-${runId.split('-').pop()}`)), 1, 'committed before the kill');
    if (tool === 'pull_request') assert.equal(f.gh.pulls('acme/api').length, 1, 'opened before the kill');
    if (tool === 'sentry_comment') assert.equal(f.sentry.comments(c.sentryId).length, 1, 'commented before the kill');

    const second = await f.life(f.args());
    assert.equal(second.code, 0, second.stderr);
    const out = lastJson<{ runId: string; phase: string }>(second.stdout);
    assert.deepEqual([out.runId, out.phase], [runId, 'done']);
    assert.match(second.stderr, new RegExp(`ladder for ${tool} \\(toolu_\\d+\\): lookup -> done`), "the rerun's ladder found the effect");
    expectOnePerCause(f, runId, before, `(--die-after ${tool})`);
    assert.deepEqual(
      f.model.asked,
      SCRIPT.map(() => 1),
      'every model reply was paid once',
    );
    expectNoToken(f.state);
  });
}
