// issue_file links the cause's Sentry issue at the end of the body it files (issue 21 item 4):
// deterministic, whatever the model wrote; once (not when the body links it already); http(s) only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bodyWithSentryLink, issueFileTool } from '../../src/tools/issue-file';
import { GitHubTracker } from '../../src/tracker/github/github-tracker';
import { readMarker } from '../../src/tracker/github/marker';
import { LIMITS } from '../../src/tracker/input';
import { startGitHubStandin } from '../support/github-standin';

const URL_101 = 'https://sentry.example/organizations/acme/issues/101/';
const SENTRY = [
  { cause: 'parse', id: '101', shortId: 'API-101', permalink: URL_101 },
  { cause: 'bad', id: '102', permalink: 'javascript:alert(1)' },
];

test('the body ends with a link to the Sentry issue; not twice; not for a cause of no Sentry issue or a non-http link', () => {
  assert.equal(bodyWithSentryLink('What broke.\n\n', 'parse', SENTRY), `What broke.\n\nSentry issue: [API-101](${URL_101})`);
  assert.equal(bodyWithSentryLink(`See ${URL_101}`, 'parse', SENTRY), `See ${URL_101}`);
  assert.equal(bodyWithSentryLink('B', 'other', SENTRY), 'B');
  assert.equal(bodyWithSentryLink('B', 'bad', SENTRY), 'B');
  assert.equal(bodyWithSentryLink('B', 'parse', undefined), 'B');
  const long = bodyWithSentryLink('x'.repeat(LIMITS.body), 'parse', SENTRY);
  assert.equal(long.length, LIMITS.body);
  assert.ok(long.endsWith(`Sentry issue: [API-101](${URL_101})`));
});

test('the issue filed on GitHub links the Sentry issue, before our marker, and the approval shows it', async (t) => {
  const gh = await startGitHubStandin({ repos: ['o/r'] });
  t.after(() => gh.close());
  const tracker = new GitHubTracker({ owner: 'o', repo: 'r', token: gh.token, apiUrl: gh.url, timeoutMs: 5000 });
  const tool = issueFileTool({ tracker, keys: true, causes: ['parse'], sentry: SENTRY });
  const args = { title: 'parse crashes', body: 'What broke.', cause: 'parse' };
  assert.match(tool.describe!(args).detail, /What broke\.\n\nSentry issue: \[API-101\]\(https:\/\/sentry\.example/);
  const res = await tool.run(args, { runId: 'run', callId: 'c1', workspace: '/w', signal: new AbortController().signal, recordWrite: async () => {} });
  assert.equal(res.isError, undefined, res.content);
  const [issue] = gh.issues('o/r');
  assert.equal(readMarker(issue.body)?.body, `What broke.\n\nSentry issue: [API-101](${URL_101})`);
});
