/**
 * GitHub issue links: a filing's result carries the issue's web page (GitHub's html_url, else
 * derived from the API address: github.com, GitHub Enterprise's /api/v3, GHE.com's api. host),
 * and the transcript shows that https:// address, never "github:OWNER/REPO/issues/N".
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import * as os from 'node:os';
import { GitHubTracker } from '../../src/tracker/github/github-tracker';
import { githubIssueWebUrl } from '../../src/tracker/github/spec';
import { withMarker } from '../../src/tracker/github/marker';
import { issueFileTool } from '../../src/tools/issue-file';
import { runTriage } from '../../src/triage/job';
import { readRun } from '../../src/store/files/checkpoint';
import { buildTranscript } from '../../src/transcript/build';
import { loadTranscript } from '../../src/transcript/load';
import { startGitHubStandin, type Standin } from '../support/github-standin';
import { reply, ScriptModel } from '../agent/support';
import { fixtureRepo } from '../runners/fixture';
import { context } from '../tools/support';
import { tempDir } from '../support/temp-dir';

const REPO = 'octo-org/durations';
const ISSUE = { title: 'total crashes on a missing price', body: 'Seen in crashes/a.log.', cause: 'total-type-error' };
const yes = { approve: async () => 'approve' as const, resolve: async () => ({ answer: 'later' as const }) };

async function standin(t: TestContext): Promise<Standin> {
  const s = await startGitHubStandin({ repos: [REPO], prefix: '/api/v3' });
  t.after(() => s.close());
  return s;
}

test('the web address of an issue for each kind of GitHub API address', () => {
  assert.equal(githubIssueWebUrl('https://api.github.com', 'o', 'r', 1), 'https://github.com/o/r/issues/1');
  assert.equal(githubIssueWebUrl('https://github.example.com/api/v3', 'o', 'r', 2), 'https://github.example.com/o/r/issues/2');
  assert.equal(githubIssueWebUrl('https://github.example.com/api/v3/', 'o', 'r', 2), 'https://github.example.com/o/r/issues/2');
  assert.equal(githubIssueWebUrl('https://api.acme.ghe.com', 'o', 'r', 3), 'https://acme.ghe.com/o/r/issues/3');
});

test("issue_file's result names GitHub's html_url; the lookup and the refile of the same call give the same text", async (t) => {
  const s = await standin(t);
  const gh = new GitHubTracker({ owner: 'octo-org', repo: 'durations', token: s.token, apiUrl: s.url });
  const tool = issueFileTool({ tracker: gh, keys: true });
  const ctx = context(os.tmpdir(), { runId: 'run-1', callId: 'toolu_1' });
  const out = await tool.run(ISSUE, ctx);
  assert.deepEqual(out, { content: `filed issue #1: ${ISSUE.title}\nurl: https://github.com/${REPO}/issues/1` });
  assert.deepEqual(await tool.lookup!(ISSUE, ctx), { status: 'done', output: out });
  assert.equal((await gh.get(1))?.url, `https://github.com/${REPO}/issues/1`);
});

test('an answer without an http(s) html_url: the address is derived from GITHUB_API_URL', async (t) => {
  const s = await standin(t);
  const gh = new GitHubTracker({ owner: 'octo-org', repo: 'durations', token: s.token, apiUrl: s.url });
  s.script('POST', /issues$/, {
    kind: 'status',
    status: 201,
    body: {
      number: 5,
      title: ISSUE.title,
      body: withMarker('x', { cause: ISSUE.cause }),
      state: 'open',
      created_at: '2026-06-01T00:00:00Z',
      html_url: 'javascript:alert(1)',
    },
  });
  const filed = await gh.fileIssue(ISSUE);
  assert.equal(filed.issue.url, `${s.url.replace(/\/api\/v3$/, '')}/${REPO}/issues/5`);
});

test('the transcript of a run on GitHub links the issue by its https:// page, also for a result saved without one', async (t) => {
  const s = await standin(t);
  const ws = fixtureRepo(t, 'node');
  const state = tempDir(t, 'triage-gh-links-');
  const model = new ScriptModel([reply(0, [['issue_file', ISSUE]]), reply(1, [], 'Filed #1.')]);
  const done = await runTriage({
    stateDir: state,
    task: 'crash-folder',
    workspace: ws,
    crashes: 'crashes',
    model,
    approver: yes,
    trackerUrl: `github:${REPO}`,
    githubApiUrl: s.url,
    githubToken: s.token,
  });
  assert.equal(done.result.phase, 'done');
  const tr = await loadTranscript(state, done.runId);
  assert.deepEqual(
    tr.issues.map((i) => i.url),
    [`https://github.com/${REPO}/issues/1`],
  );

  const saved = await readRun(state, done.runId);
  for (const m of saved.messages) {
    if (m.role === 'tool') m.results = m.results.map((r) => (r.content.startsWith('filed issue #1') ? { ...r, content: `filed issue #1: ${ISSUE.title}` } : r)); // as an older version saved it
  }
  const old = buildTranscript(saved);
  assert.deepEqual(
    old.issues.map((i) => i.url),
    [`${s.url.replace(/\/api\/v3$/, '')}/${REPO}/issues/1`],
    'derived from the saved GITHUB_API_URL',
  );
  delete saved.config.options!.githubApiUrl;
  assert.deepEqual(
    buildTranscript(saved).issues.map((i) => i.url),
    [`https://github.com/${REPO}/issues/1`],
  );
});
