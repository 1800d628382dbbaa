/**
 * The effects sweep's judge counts from the real things, so a duplicate anywhere shows in its
 * table: a world with every side effect made twice for one cause (an issue, a commit with its
 * Triage-Key trailer on a branch of the cause, pushed; a pull request for that branch; a Sentry
 * comment with our marker) is judged as one duplicate of each; an untouched world fails its checks.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { judgeEffects, makeTemplate, makeWorld } from './effects/world';
import { CAUSES, REPO } from './effects/script';
import { withMarker } from '../../src/tracker/github/marker';

const ID = { GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.com' };
const git = (dir: string, ...args: string[]): void => void execFileSync('git', ['-C', dir, ...args], { env: { ...process.env, ...ID }, stdio: 'ignore' });

test('the effects judge counts one duplicate of each side effect made twice, and fails an untouched world', async (t) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-effects-judge-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const template = makeTemplate(root);

  const empty = await makeWorld(template, path.join(root, 'empty'));
  const none = judgeEffects(empty, true);
  await empty.close();
  assert.deepEqual(none.duplicates, { issues: 0, commits: 0, pulls: 0, comments: 0 });
  assert.ok(none.failedChecks.includes(`${CAUSES[0].cause}: one issue (0)`), none.failedChecks.join('\n'));
  assert.ok(none.failedChecks.includes(`${CAUSES[1].cause}: one Sentry comment (0)`), none.failedChecks.join('\n'));

  const w = await makeWorld(template, path.join(root, 'twice'));
  t.after(() => w.close());
  const c = CAUSES[0];
  const branch = `triage/${c.cause}-abcd1234`;
  for (const n of [1, 2]) {
    w.gh.seed(REPO, { title: c.title, body: withMarker('filed', { cause: c.cause, key: `k${n}` }) });
    const res = await fetch(`${w.gh.url}/repos/${REPO}/pulls`, {
      method: 'POST',
      headers: { Authorization: `token ${w.gh.token}`, 'User-Agent': 'judge-test', 'Content-Type': 'application/json' },
      body: JSON.stringify({
        title: c.title,
        head: n === 1 ? branch : `${branch}-2`,
        base: 'main',
        body: withMarker('Fixes #1', { cause: c.cause, key: `k${n}` }),
      }),
    });
    assert.equal(res.status, 201);
    const posted = await fetch(`${w.sentry.url}/api/0/organizations/acme/issues/${c.sentryId}/comments/`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${w.sentry.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ text: withMarker('- Pull request #3', { cause: c.cause, key: `k${n}` }) }),
    });
    assert.equal(posted.status, 201);
  }
  git(w.workspace, 'switch', '--quiet', '-c', branch);
  for (const n of [1, 2]) {
    fs.writeFileSync(path.join(w.workspace, c.file), `// fix ${n}\n`);
    git(w.workspace, 'commit', '--quiet', '-am', `fix ${n}`, '-m', `Triage-Key: k${n}\nTriage-Cause: ${c.cause}`);
  }
  git(w.workspace, 'push', '--quiet', 'origin', branch);
  git(w.workspace, 'switch', '--quiet', 'main');

  const j = judgeEffects(w, true);
  assert.deepEqual(j.duplicates, { issues: 1, commits: 1, pulls: 1, comments: 1 });
  assert.ok(j.failedChecks.includes(`${c.cause}: one branch with one commit (1 branches, 2 commits)`), j.failedChecks.join('\n'));
});
