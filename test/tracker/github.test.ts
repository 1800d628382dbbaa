/**
 * The GitHub tracker against the local stand-in of GitHub's REST API (real shapes): the hidden
 * marker and label, the lookup by the label list with state=all (never the search API), the
 * refile guard and issue_lookup, GITHUB_API_URL with a path, and each error a user can meet.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import * as os from 'node:os';
import { GitHubTracker } from '../../src/tracker/github/github-tracker';
import { GitHubAccessError, GitHubAuthError, GitHubRateLimitError, GitHubUnavailableError } from '../../src/tracker/github/errors';
import { LABEL, readMarker } from '../../src/tracker/github/marker';
import { githubSpecOfRemote } from '../../src/tracker/github/spec';
import { parseTrackerSpec } from '../../src/tracker/spec';
import { issueFileTool } from '../../src/tools/issue-file';
import { issueLookupTool } from '../../src/tools/issue-lookup';
import { idempotencyKey } from '../../src/agent/idempotency-key';
import { BadInputError } from '../../src/core/errors';
import { startGitHubStandin, type Standin } from '../support/github-standin';
import { context } from '../tools/support';

const REPO = 'octo-org/durations';
const ISSUE = { title: 'parseDuration crashes on an unknown unit', body: 'Seen in crashes/a.log.', cause: 'parse-duration-type-error' };

async function standin(t: TestContext, prefix = '/api/v3'): Promise<Standin> {
  const s = await startGitHubStandin({ repos: [REPO], prefix });
  t.after(() => s.close());
  return s;
}

function tracker(s: Standin, o: { token?: string | null; repo?: string; sleeps?: number[] } = {}): GitHubTracker {
  const [owner, repo] = (o.repo ?? REPO).split('/');
  return new GitHubTracker({
    owner,
    repo,
    token: o.token === null ? undefined : (o.token ?? s.token),
    apiUrl: s.url,
    sleep: async (ms) => {
      o.sleeps?.push(ms);
    },
    timeoutMs: 2000,
  });
}

test('a filing carries the key in a hidden marker and our label; the lookup lists with the label and state=all', async (t) => {
  const s = await standin(t);
  const gh = tracker(s);
  const filed = await gh.fileIssue(ISSUE, { key: 'k1', runId: 'run-1', workspace: '/home/me/repo' });
  assert.equal(filed.issue.number, 1);
  const stored = s.issues(REPO)[0];
  assert.deepEqual(stored.labels, [LABEL]);
  assert.match(stored.body!, /^Seen in crashes\/a\.log\.\n\n<!-- durable-triage key=k1 cause=parse-duration-type-error run=run-1 -->\n$/);
  assert.ok(!stored.body!.includes('/home/me'), 'the local workspace path does not go to GitHub');
  const post = s.requests.find((r) => r.method === 'POST')!;
  assert.equal(post.path, `/api/v3/repos/${REPO}/issues`, 'GITHUB_API_URL keeps its path');
  assert.match(String(post.headers.authorization), new RegExp(`^(token|bearer) ${s.token}$`, 'i'));
  assert.match(String(post.headers['user-agent']), /durable-triage/);

  s.seed(REPO, { title: 'a person wrote this', body: 'no marker' });
  s.seed(REPO, { title: 'labelled but not ours', body: 'no marker', labels: [LABEL] });
  s.seed(REPO, { title: 'a pull request', body: 'x\n\n<!-- durable-triage key=k9 cause=c -->', labels: [LABEL], pullRequest: true });
  const found = await gh.byKey('k1');
  assert.equal(found?.number, 1);
  assert.equal(found?.body, ISSUE.body, 'the marker is not part of the body shown');
  assert.deepEqual([found?.cause, found?.runId, found?.key, found?.state], [ISSUE.cause, 'run-1', 'k1', 'open']);
  assert.equal(await gh.byKey('k2'), undefined, 'no issue with that key: certainly not filed');
  assert.equal(await gh.byKey('k9'), undefined, 'pull requests are not issues');
  const lists = s.requests.filter((r) => r.method === 'GET' && /\/issues\?/.test(r.path));
  assert.ok(lists.length > 0);
  for (const r of lists) {
    const q = new URL(r.path, 'http://x').searchParams;
    assert.deepEqual([q.get('labels'), q.get('state')], [LABEL, 'all']);
  }
  assert.ok(!s.requests.some((r) => r.path.includes('/search/')), 'never the search API');
  assert.equal((await gh.get(2))?.title, 'a person wrote this');
  assert.equal(await gh.get(99), undefined);
  for (const r of s.requests) {
    assert.match(String(r.headers.authorization), /^(token|bearer) /i, `${r.method} ${r.path} sends the token`);
    assert.match(String(r.headers['user-agent']), /durable-triage/, `${r.method} ${r.path} sends a User-Agent`);
    assert.ok(r.path.startsWith('/api/v3/'), r.path);
  }
});

test('the lookup pages through every issue of ours (Link rel="next" under the API path)', async (t) => {
  const s = await standin(t);
  for (let i = 0; i < 120; i++)
    s.seed(REPO, { title: `old ${i}`, body: `x\n\n<!-- durable-triage key=old${i} cause=c${i} -->`, labels: [LABEL], state: i % 2 ? 'closed' : 'open' });
  const gh = tracker(s);
  assert.equal((await gh.byKey('old119'))?.number, 120);
  assert.equal((await gh.byKey('old1'))?.state, 'closed', 'closed issues count as filed');
  assert.equal(s.requests.filter((r) => /\/issues\?/.test(r.path)).length, 4, 'two pages per list, two lists');
});

test('issue_file on GitHub: not keyed, its lookup finds the marker of the call key; the refile guard and issue_lookup', async (t) => {
  const s = await standin(t);
  const gh = tracker(s);
  const tool = issueFileTool({ tracker: gh, keys: true });
  assert.equal(tool.keyed, undefined, 'GitHub honours no keys: never a blind rerun');
  assert.ok(tool.lookup);
  const ctx = context(os.tmpdir(), { runId: 'run-1', callId: 'toolu_1' });
  assert.equal((await tool.lookup(ISSUE, ctx)).status, 'not-done');
  assert.deepEqual(await tool.run(ISSUE, ctx), { content: `filed issue #1: ${ISSUE.title}\nurl: https://github.com/${REPO}/issues/1` });
  assert.equal(readMarker(s.issues(REPO)[0].body)?.marker.key, idempotencyKey('run-1', 'toolu_1'), 'the key formula over the run ID and the call ID');
  assert.deepEqual(await tool.lookup(ISSUE, ctx), {
    status: 'done',
    output: { content: `filed issue #1: ${ISSUE.title}\nurl: https://github.com/${REPO}/issues/1` },
  });
  const again = await tool.run({ ...ISSUE, title: 'again' }, context(os.tmpdir(), { runId: 'run-2', callId: 'toolu_7' }));
  assert.deepEqual(again, { content: `issue #1 is already filed for cause ${ISSUE.cause} in this workspace by run run-1; not filing it again`, isError: true });
  s.issues(REPO)[0].state = 'closed';
  assert.equal(
    (await tool.run({ ...ISSUE, title: 'it came back' }, context(os.tmpdir(), { runId: 'run-2', callId: 'toolu_8' }))).content,
    `filed issue #2: it came back\nurl: https://github.com/${REPO}/issues/2`,
    'a closed issue of the cause does not block a new one',
  );
  const lookup = issueLookupTool({ tracker: gh });
  assert.equal(
    (await lookup.run({ cause: ISSUE.cause }, ctx)).content,
    `#1 [${ISSUE.cause}] ${ISSUE.title} (filed by this run) (closed)\n#2 [${ISSUE.cause}] it came back (filed by run run-2)`,
  );
  assert.match((await lookup.run({ number: 2 }, ctx)).content, /^#2 \[parse-duration-type-error\] it came back/);
  const off = issueFileTool({ tracker: gh, keys: false });
  assert.deepEqual([off.keyed, off.lookup], [undefined, undefined], 'keys off: no marker key, no lookup; a marked filing goes to a person');
});

test('errors a user meets: no token, a rejected token, a repository not found, no permission, issues disabled', async (t) => {
  const s = await standin(t);
  await assert.rejects(
    tracker(s, { token: null }).fileIssue(ISSUE),
    (e: unknown) => e instanceof GitHubAuthError && /GITHUB_TOKEN/.test(e.message) && /sign in/.test(e.message),
  );
  assert.equal(s.requests.length, 0, 'nothing is sent without a token');
  await assert.rejects(tracker(s, { token: 'ghp_wrong' }).byKey('k'), (e: unknown) => e instanceof GitHubAuthError && /401 Bad credentials/.test(e.message));
  await assert.rejects(
    tracker(s, { repo: 'octo-org/missing' }).search({}),
    (e: unknown) => e instanceof GitHubAccessError && e.status === 404 && /does not exist, or the token cannot see it/.test(e.message),
  );
  s.script('POST', /issues$/, {
    kind: 'status',
    status: 403,
    body: { message: 'Resource not accessible by personal access token', documentation_url: 'https://docs.github.com/rest' },
  });
  await assert.rejects(
    tracker(s).fileIssue(ISSUE),
    (e: unknown) => e instanceof GitHubAccessError && e.status === 403 && /Resource not accessible/.test(e.message),
  );
  s.script('GET', /issues$/, {
    kind: 'status',
    status: 410,
    body: { message: 'Issues are disabled for this repo', documentation_url: 'https://docs.github.com/rest' },
  });
  await assert.rejects(tracker(s).search({}), (e: unknown) => e instanceof GitHubAccessError && /Issues are disabled/.test(e.message));
  s.script('POST', /issues$/, {
    kind: 'status',
    status: 422,
    body: { message: 'Validation Failed', errors: [], documentation_url: 'https://docs.github.com/rest' },
  });
  await assert.rejects(tracker(s).fileIssue(ISSUE), (e: unknown) => e instanceof BadInputError && /nothing was filed/.test(e.message));
  assert.equal(s.issues(REPO).length, 0);
});

test('a rate limit is waited out as GitHub says (retry-after, or the reset time); a long one stops the run', async (t) => {
  const s = await standin(t);
  const sleeps: number[] = [];
  s.script('POST', /issues$/, {
    kind: 'status',
    status: 429,
    body: { message: 'You have exceeded a secondary rate limit', documentation_url: 'https://docs.github.com/rest' },
    headers: { 'retry-after': '7' },
  });
  s.script('GET', /issues$/, {
    kind: 'status',
    status: 403,
    body: { message: 'API rate limit exceeded', documentation_url: 'https://docs.github.com/rest' },
    headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 20) },
  });
  const gh = tracker(s, { sleeps });
  assert.equal((await gh.fileIssue(ISSUE, { key: 'k' })).issue.number, 1);
  assert.deepEqual(sleeps, [7000], 'retry-after honoured');
  assert.equal((await gh.byKey('k'))?.number, 1);
  assert.ok(sleeps[1] > 15_000 && sleeps[1] <= 21_000, `waited until the reset: ${sleeps[1]}`);
  assert.equal(s.issues(REPO).length, 1, 'the refused filing was sent again once, and filed once');
  s.script('POST', /issues$/, {
    kind: 'status',
    status: 403,
    body: { message: 'API rate limit exceeded' },
    headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3000) },
  });
  await assert.rejects(
    gh.fileIssue({ ...ISSUE, cause: 'other' }),
    (e: unknown) => e instanceof GitHubRateLimitError && e.retryAt.getTime() > Date.now() + 2_000_000 && /Resume the run after that/.test(e.message),
  );
});

test('GitHub down: 5xx, a dropped connection, nothing listening', async (t) => {
  const s = await standin(t);
  s.script('POST', /issues$/, { kind: 'status', status: 502, body: { message: 'Server Error' } });
  await assert.rejects(
    tracker(s).fileIssue(ISSUE),
    (e: unknown) => e instanceof GitHubUnavailableError && /502/.test(e.message) && /files nothing twice/.test(e.message),
  );
  s.script('POST', /issues$/, { kind: 'act-then-drop' });
  await assert.rejects(tracker(s).fileIssue(ISSUE, { key: 'k-lost' }), (e: unknown) => e instanceof GitHubUnavailableError);
  assert.equal((await tracker(s).byKey('k-lost'))?.number, 1, 'the answer was lost, the issue is there: the lookup finds it');
  const gone = await startGitHubStandin({ repos: [REPO] });
  await gone.close();
  const dead = new GitHubTracker({ owner: 'octo-org', repo: 'durations', token: gone.token, apiUrl: gone.url, timeoutMs: 2000 });
  await assert.rejects(dead.search({}), (e: unknown) => e instanceof GitHubUnavailableError && /GitHub is not answering/.test(e.message));
});

test('tracker specs and the origin remote as the default', () => {
  assert.deepEqual(parseTrackerSpec('github:octo-org/durations'), { kind: 'github', owner: 'octo-org', repo: 'durations' });
  assert.deepEqual(parseTrackerSpec(undefined), { kind: 'embedded' });
  assert.deepEqual(parseTrackerSpec('embedded'), { kind: 'embedded' });
  assert.deepEqual(parseTrackerSpec('http://127.0.0.1:4000'), { kind: 'http', url: 'http://127.0.0.1:4000' });
  for (const bad of ['github:nope', 'github:a/b/c', 'github:/x', 'ftp://x', 'just words']) assert.throws(() => parseTrackerSpec(bad), BadInputError, bad);
  assert.equal(githubSpecOfRemote('git@github.com:octo-org/durations.git'), 'github:octo-org/durations');
  assert.equal(githubSpecOfRemote('https://github.com/octo-org/durations'), 'github:octo-org/durations');
  assert.equal(githubSpecOfRemote('https://gitlab.com/a/b.git'), undefined);
});
