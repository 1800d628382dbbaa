/**
 * sentry_comment through the durable loop, with the GitHub and Sentry stand-ins: the comment on
 * the cause's Sentry issue links its GitHub issue (and pull request), carries our marker with the
 * call's key, and is posted once, even when the run crashes right after posting it and before its
 * result is saved (the ladder's lookup lists the issue's comments and finds the marker).
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startRun, resumeRun, type RunParts } from '../../src/agent/runner';
import { toolSet } from '../../src/agent/tool';
import type { LoopEvent } from '../../src/agent/loop';
import { idempotencyKey } from '../../src/agent/idempotency-key';
import { openStore } from '../../src/store/open-store';
import { runPath, readRun } from '../../src/store/files/checkpoint';
import { TOOL_ACTED } from '../../src/store/crash-points';
import { SimulatedCrash } from '../../src/sweep/simulated-crash';
import { GitHubTracker } from '../../src/tracker/github/github-tracker';
import { readMarker } from '../../src/tracker/github/marker';
import { SentryComments } from '../../src/crashes/sentry/comments';
import { SentryUnavailableError } from '../../src/crashes/sentry/errors';
import { sentryCommentTool, type SentryCommentOptions } from '../../src/tools/sentry-comment';
import { ScriptModel, Person, freshState, reply } from '../agent/support';
import { startGitHubStandin } from '../support/github-standin';
import { startSentryStandin } from '../support/sentry-standin';
import { NODE_FIXTURE_ISSUES } from '../support/sentry-issues';

const REPO = 'octo-org/durations';
const CAUSE = 'parse-duration-type-error';
const SENTRY_ID = NODE_FIXTURE_ISSUES[0].id;

async function services(t: TestContext, o: { glitchtip?: boolean } = {}) {
  const gh = await startGitHubStandin({ repos: [REPO] });
  const sentry = await startSentryStandin({ org: 'acme', project: 'api', issues: NODE_FIXTURE_ISSUES.map((i) => ({ ...i })), perPage: 2, ...o });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-sentry-comment-'));
  t.after(async () => {
    await gh.close();
    await sentry.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const [owner, repo] = REPO.split('/');
  const tracker = new GitHubTracker({ owner, repo, token: gh.token, apiUrl: gh.url, timeoutMs: 5000 });
  const issue = (await tracker.fileIssue({ title: 'parseDuration crashes on a missing unit', body: 'crash', cause: CAUSE }, { runId: 'run' })).issue;
  const comments = new SentryComments({ baseUrl: sentry.url, token: sentry.token, org: 'acme', project: 'api' });
  return { gh, sentry, dir, tracker, issue, comments };
}

function tool(s: Awaited<ReturnType<typeof services>>, more: Partial<SentryCommentOptions> = {}) {
  return sentryCommentTool({
    comments: s.comments,
    issues: [{ cause: CAUSE, id: SENTRY_ID, shortId: `API-${SENTRY_ID}`, permalink: `${s.sentry.url}/organizations/acme/issues/${SENTRY_ID}/` }],
    tracker: s.tracker,
    keys: true,
    ...more,
  });
}

async function loop(t: TestContext, s: Awaited<ReturnType<typeof services>>, script: ReturnType<typeof reply>[], dieAfter?: string) {
  const person = new Person();
  const events: LoopEvent[] = [];
  const model = new ScriptModel(script);
  const parts = (): RunParts => ({ model, tools: toolSet([tool(s)]), approver: person });
  let finished = false;
  for (let life = 0; life < 3 && !finished; life++) {
    const crash = (p: string, d?: { tool?: string }): void => {
      if (life === 0 && p === TOOL_ACTED && d?.tool === dieAfter) throw new SimulatedCrash(p);
    };
    const common = { runStore: openStore(s.dir), parts, crash, store: { sync: false }, onEvent: (e: LoopEvent) => events.push(e) };
    try {
      const res = fs.existsSync(runPath(s.dir, 'run'))
        ? await resumeRun({ ...common, runId: 'run' })
        : await startRun({ ...common, state: freshState('run', s.dir) });
      finished = res.phase === 'done';
    } catch (e) {
      if (!(e instanceof SimulatedCrash)) throw e;
    }
  }
  assert.ok(finished, 'the run finished');
  return { person, events, state: await readRun(s.dir, 'run') };
}

for (const dieAfter of [undefined, 'sentry_comment']) {
  test(`one comment on the Sentry issue with the GitHub issue's link${dieAfter ? ', with a crash right after it was posted' : ''}`, async (t) => {
    const s = await services(t);
    const run = await loop(t, s, [reply(0, [['sentry_comment', { cause: CAUSE }]]), reply(1, [], 'done')], dieAfter);
    const posted = s.sentry.comments(SENTRY_ID);
    assert.equal(posted.length, 1, 'one comment');
    assert.match(
      posted[0].text,
      new RegExp(
        `^Durable Triage worked on this crash group \\(cause \`${CAUSE}\`\\):\\n- Issue #${s.issue.number}: parseDuration crashes on a missing unit https://github\\.com/${REPO}/issues/${s.issue.number}\\n`,
      ),
    );
    const marker = readMarker(posted[0].text)?.marker;
    assert.deepEqual(marker, { cause: CAUSE, runId: 'run', key: idempotencyKey('run', 'c0_0') });
    const results = run.state.messages.flatMap((m) => (m.role === 'tool' ? m.results : []));
    assert.equal(
      results[0].content,
      `commented on Sentry issue API-${SENTRY_ID} (comment ${posted[0].id})\nurl: ${s.sentry.url}/organizations/acme/issues/${SENTRY_ID}/`,
    );
    assert.equal(run.person.questions, 0, 'nobody was asked what happened: the lookup knew');
    if (dieAfter)
      assert.deepEqual(
        run.events.filter((e) => e.type === 'ladder').map((e) => e.type === 'ladder' && [e.call.name, e.step, e.outcome]),
        [['sentry_comment', 'lookup', 'done']],
      );
  });
}

test('a second call for the same cause (a fresh key) is answered with the comment already there, nothing posted', async (t) => {
  const s = await services(t);
  await loop(t, s, [reply(0, [['sentry_comment', { cause: CAUSE }]]), reply(1, [['sentry_comment', { cause: CAUSE }]]), reply(2, [], 'done')]);
  assert.equal(s.sentry.comments(SENTRY_ID).length, 1);
});

test("the lookup finds the key among many comments (pages followed), says not-done for another call's, and throws when Sentry fails", async (t) => {
  const s = await services(t);
  for (let i = 0; i < 4; i++) await s.comments.post(SENTRY_ID, `a person's comment ${i}`);
  const tl = tool(s);
  const ctx = (callId: string) => ({ runId: 'run', callId, workspace: s.dir, signal: new AbortController().signal, recordWrite: async () => {} });
  const done = await tl.run({ cause: CAUSE }, ctx('c1'));
  for (let i = 4; i < 8; i++) await s.comments.post(SENTRY_ID, `a person's comment ${i}`);
  const found = await tl.lookup!({ cause: CAUSE }, ctx('c1'));
  assert.deepEqual(found, { status: 'done', output: done });
  assert.deepEqual(await tl.lookup!({ cause: CAUSE }, ctx('c2')), { status: 'not-done' });
  s.sentry.script({ match: '/comments/', status: 502 });
  await assert.rejects(
    tl.lookup!({ cause: CAUSE }, ctx('c1')),
    (e: unknown) => e instanceof SentryUnavailableError && /Sentry comment was saved/.test(e.message),
  );
});

test('GitHub issue and pull request both linked; GlitchTip answers at /api/0/issues/{id}/comments/', async (t) => {
  const s = await services(t, { glitchtip: true });
  const tl = tool(s, { pullRequest: async () => ({ number: 7, title: 'Fix parseDuration', url: `https://github.com/${REPO}/pull/7` }) });
  await tl.run({ cause: CAUSE }, { runId: 'run', callId: 'c1', workspace: s.dir, signal: new AbortController().signal, recordWrite: async () => {} });
  const [c] = s.sentry.comments(SENTRY_ID);
  assert.match(c.text, new RegExp(`\\n- Pull request #7: Fix parseDuration https://github\\.com/${REPO}/pull/7\\n`));
  assert.ok(s.sentry.requests.some((r) => r.method === 'POST' && r.path === `/api/0/issues/${SENTRY_ID}/comments/`));
});

test('nothing to link yet: an error result, nothing posted', async (t) => {
  const s = await services(t);
  const res = await sentryCommentTool({
    comments: s.comments,
    issues: [{ cause: 'other-cause', id: SENTRY_ID }],
    tracker: s.tracker,
    keys: true,
  }).run({ cause: 'other-cause' }, { runId: 'run', callId: 'c1', workspace: s.dir, signal: new AbortController().signal, recordWrite: async () => {} });
  assert.equal(res.isError, true);
  assert.match(res.content, /nothing to link for cause other-cause yet/);
  assert.deepEqual(s.sentry.comments(SENTRY_ID), []);
});
