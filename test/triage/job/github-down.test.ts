/**
 * GitHub failing during issue_file: the call is not marked done (no result is saved; its
 * attempt marker stays), the run stops with the typed error, and the resumed run's lookup asks
 * GitHub before filing: an issue created before the answer was lost is found, not filed again;
 * a filing GitHub refused is made once.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { runTriage, type TriageRunOptions } from '../../../src/triage/job';
import { readRun } from '../../../src/store/files/checkpoint';
import { GitHubAuthError, GitHubUnavailableError } from '../../../src/tracker/github/errors';
import { exitCodeOf, EXIT } from '../../../src/cli/exitcodes';
import { startGitHubStandin, type Scripted, type Standin } from '../../support/github-standin';
import { reply, ScriptModel } from '../../agent/support';
import { fixtureRepo } from '../../runners/fixture';
import { tempDir } from '../../support/temp-dir';

const REPO = 'octo-org/durations';
const yes = { approve: async () => 'approve' as const, resolve: async () => ({ answer: 'later' as const }) };

function options(t: TestContext, gh: Standin, model: ScriptModel, token?: string): TriageRunOptions {
  const ws = fixtureRepo(t, 'node');
  const state = tempDir(t, 'triage-gh-down-');
  return {
    stateDir: state,
    task: 'crash-folder',
    workspace: ws,
    crashes: 'crashes',
    model,
    approver: yes,
    trackerUrl: `github:${REPO}`,
    githubApiUrl: gh.url,
    ...(token ? { githubToken: token } : {}),
  };
}

const script = (): ScriptModel =>
  new ScriptModel([reply(0, [['issue_file', { title: 't', body: 'b', cause: 'total-type-error' }]]), reply(1, [], 'Filed #1.')]);

for (const [what, answer] of [
  ['the answer to a filing that was made is lost', { kind: 'act-then-drop' }],
  ['GitHub answers 502 and files nothing', { kind: 'status', status: 502 }],
] as [string, Scripted][]) {
  test(`${what}: the run stops with the marker and no result; the resume files exactly once`, async (t) => {
    const gh = await startGitHubStandin({ repos: [REPO], prefix: '/api/v3' });
    t.after(() => gh.close());
    const model = script();
    const o = options(t, gh, model, gh.token);
    gh.script('POST', /issues$/, answer);
    let runId = '';
    await assert.rejects(
      runTriage({ ...o, onRunOpened: (id) => (runId = id) }),
      (e: unknown) => e instanceof GitHubUnavailableError && exitCodeOf(e) === EXIT.tracker,
    );
    const saved = await readRun(o.stateDir!, runId);
    assert.equal(saved.phase, 'tools');
    assert.deepEqual(Object.keys(saved.attempts ?? {}), ['c0_0'], 'the filing is marked');
    assert.equal(saved.results?.c0_0, undefined, 'and not done');
    const events: string[] = [];
    const done = await runTriage({ ...o, onEvent: (e) => e.type === 'ladder' && events.push(`${e.step}:${e.outcome}`) });
    assert.equal(done.result.phase, 'done');
    assert.deepEqual(events, [answer.kind === 'act-then-drop' ? 'lookup:done' : 'lookup:not-done']);
    assert.equal(gh.issues(REPO).length, 1, 'one issue');
    assert.equal(gh.requests.filter((r) => r.method === 'POST').length, answer.kind === 'act-then-drop' ? 1 : 2);
    assert.equal(model.total, 2, 'no reply paid twice');
  });
}

test('no token: the run stops before filing, saying what to set; with one it goes on', async (t) => {
  const gh = await startGitHubStandin({ repos: [REPO], prefix: '/api/v3' });
  t.after(() => gh.close());
  const model = script();
  const o = options(t, gh, model);
  await assert.rejects(runTriage(o), (e: unknown) => e instanceof GitHubAuthError && /GITHUB_TOKEN/.test(e.message) && exitCodeOf(e) === EXIT.tracker);
  assert.equal(gh.requests.length, 0);
  const done = await runTriage({ ...o, githubToken: gh.token });
  assert.equal(done.result.phase, 'done');
  assert.deepEqual(
    done.issues.map((i) => i.number),
    [1],
  );
});
