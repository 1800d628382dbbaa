/**
 * The Sentry crash source against a stand-in of Sentry's API on 127.0.0.1: the project's issues
 * (Link pages followed, sorted by frequency, the query and the limit sent), each latest event's
 * in-app frames mapped to workspace files; 429 waited out (a bounded number of times); a bad
 * token, an unknown project and an unreachable Sentry each a typed error with its own exit code.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sentryCrashGroups, type SentryFetch } from '../../src/crashes/sentry/groups';
import { sentrySettings } from '../../src/crashes/sentry/source';
import { nextLink, retryAfterSeconds } from '../../src/crashes/sentry/http';
import { SentryAuthError, SentryNotFoundError, SentryUnavailableError } from '../../src/crashes/sentry/errors';
import { BadInputError } from '../../src/core/errors';
import { EXIT, exitCodeOf } from '../../src/cli/exitcodes';
import { startSentryStandin, type SentryStandin } from '../support/sentry-standin';
import { NODE_FIXTURE_ISSUES } from '../support/sentry-issues';
import { tempDir } from '../support/temp-dir';

const FIXTURE = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'repos', 'node');

function workspace(t: TestContext): string {
  const ws = tempDir(t, 'triage-sentry-ws-');
  fs.cpSync(FIXTURE, ws, { recursive: true });
  return ws;
}

async function standin(t: TestContext, o: { glitchtip?: boolean } = {}): Promise<SentryStandin> {
  const s = await startSentryStandin({ org: 'acme', project: 'api', issues: NODE_FIXTURE_ISSUES.map((i) => ({ ...i })), ...o });
  t.after(() => s.close());
  return s;
}

function options(s: SentryStandin, more: Partial<SentryFetch> = {}): SentryFetch {
  return { ...sentrySettings({ baseUrl: s.url }), token: s.token, sleep: async () => undefined, ...more };
}

test("a Sentry project's issues become crash groups: pages followed, frames placed in the workspace, Sentry's facts kept", async (t) => {
  const ws = workspace(t);
  const s = await standin(t);
  const groups = await sentryCrashGroups(ws, 'sentry:acme/api', options(s));
  assert.deepEqual(
    groups.map((g) => [g.cause, g.signature]),
    [
      ['parse-duration-type-error', 'TypeError @ parseDuration (src/duration.js)'],
      ['total-type-error', 'TypeError @ total (src/report.js)'],
      ['error', 'Error @ "connect ECONNREFUSED N.N.N.N:N"'],
    ],
  );
  assert.deepEqual(groups[0].frames, [
    { file: 'src/duration.js', fn: 'parseDuration', line: 12 },
    { file: 'src/cli.js', fn: 'sumFile', line: 7 },
    { file: 'src/cli.js', fn: 'main', line: 12 },
  ]);
  assert.deepEqual(groups[2].frames, [], 'frames Sentry marks as not in the app are left out');
  assert.equal(groups[0].message, "Cannot read properties of undefined (reading 'ms')");
  assert.deepEqual(groups[0].sentry, {
    id: '101',
    shortId: 'API-101',
    title: "TypeError: Cannot read properties of undefined (reading 'ms')",
    culprit: 'parseDuration(/srv/durations/src/duration)',
    count: 1024,
    userCount: 37,
    firstSeen: '2026-11-01T10:00:00.000000Z',
    lastSeen: '2026-12-01T10:00:00.000000Z',
    permalink: `${s.url}/organizations/acme/issues/101/`,
    eventId: '9fac2ceed9344f2bbfdd1fdacb0ed9b101',
  });
  const lists = s.requests.filter((r) => r.path.includes('/projects/'));
  assert.equal(lists.length, 2, 'two pages (the stand-in pages by 2)');
  const first = new URL(lists[0].path, s.url);
  assert.equal(first.pathname, '/api/0/projects/acme/api/issues/');
  assert.equal(first.searchParams.get('query'), 'is:unresolved');
  assert.equal(first.searchParams.get('sort'), 'freq');
  assert.equal(first.searchParams.get('limit'), '10');
  assert.match(lists[1].path, /cursor=0%3A2%3A0/);
  assert.ok(s.requests.some((r) => r.path === '/api/0/organizations/acme/issues/101/events/latest/'));
  assert.ok(s.requests.every((r) => r.authorization === `Bearer ${s.token}`));
});

test('the limit caps the issues taken (no further page is read); GlitchTip is read by the short latest-event path', async (t) => {
  const ws = workspace(t);
  const s = await standin(t, { glitchtip: true });
  const groups = await sentryCrashGroups(ws, 'sentry:acme/api', { ...options(s), limit: 1 });
  assert.deepEqual(
    groups.map((g) => g.cause),
    ['parse-duration-type-error'],
  );
  assert.equal(s.requests.filter((r) => r.path.includes('/projects/')).length, 1);
  assert.ok(s.requests.some((r) => r.path === '/api/0/issues/101/events/latest/'));
  assert.equal(groups[0].frames?.[0]?.file, 'src/duration.js');
});

test('a 429 is waited out for its Retry-After, a bounded number of times', async (t) => {
  const ws = workspace(t);
  const s = await standin(t);
  const waits: number[] = [];
  s.script({ match: '/issues/', status: 429, headers: { 'Retry-After': '2' }, body: { detail: 'Request was throttled.' } });
  const groups = await sentryCrashGroups(ws, 'sentry:acme/api', options(s, { sleep: async (ms) => void waits.push(ms) }));
  assert.deepEqual(waits, [2000]);
  assert.equal(groups.length, 3);

  for (let i = 0; i < 4; i++) s.script({ match: '/projects/', status: 429, headers: { 'Retry-After': '1' } });
  waits.length = 0;
  await assert.rejects(
    sentryCrashGroups(ws, 'sentry:acme/api', options(s, { maxWaits: 3, sleep: async (ms) => void waits.push(ms) })),
    (e: unknown) => e instanceof SentryUnavailableError && /rate limited \(429\) 4 time/.test(e.message) && exitCodeOf(e) === EXIT.sentryUnavailable,
  );
  assert.deepEqual(waits, [1000, 1000, 1000]);
  s.script({ match: '/projects/', status: 429, headers: { 'Retry-After': '3600' } });
  await assert.rejects(sentryCrashGroups(ws, 'sentry:acme/api', options(s)), /asking to wait 3600 s/);
});

test('a bad or missing token, an unknown project and an unreachable Sentry: each a typed error with its own exit code, the token in no message', async (t) => {
  const ws = workspace(t);
  const s = await standin(t);
  const bad = await sentryCrashGroups(ws, 'sentry:acme/api', { ...options(s), token: 'wrong-token-xyz' }).catch((e: unknown) => e);
  assert.ok(bad instanceof SentryAuthError && bad.status === 401, String(bad));
  assert.equal(exitCodeOf(bad), EXIT.sentryAuth);
  assert.ok(!bad.message.includes('wrong-token-xyz'));

  const before = s.requests.length;
  const missing = await sentryCrashGroups(ws, 'sentry:acme/api', { ...options(s), token: undefined }).catch((e: unknown) => e);
  assert.ok(missing instanceof SentryAuthError && /SENTRY_AUTH_TOKEN/.test(missing.message));
  assert.equal(s.requests.length, before, 'no request without a token');

  s.script({ match: '/projects/', status: 403, body: { detail: 'You do not have permission to perform this action.' } });
  const forbidden = await sentryCrashGroups(ws, 'sentry:acme/api', options(s)).catch((e: unknown) => e);
  assert.ok(forbidden instanceof SentryAuthError && /event:read/.test(forbidden.message));

  const unknown = await sentryCrashGroups(ws, 'sentry:acme/nope', options(s)).catch((e: unknown) => e);
  assert.ok(unknown instanceof SentryNotFoundError && /sentry:acme\/nope/.test(unknown.message));
  assert.equal(exitCodeOf(unknown), EXIT.sentryNotFound);

  s.script({ match: '/projects/', status: 502 });
  const down = await sentryCrashGroups(ws, 'sentry:acme/api', options(s)).catch((e: unknown) => e);
  assert.ok(down instanceof SentryUnavailableError && /502/.test(down.message));

  const closed = await startSentryStandin({ org: 'acme', project: 'api', issues: [] });
  const url = closed.url;
  await closed.close();
  const gone = await sentryCrashGroups(ws, 'sentry:acme/api', { ...options(s), baseUrl: url }).catch((e: unknown) => e);
  assert.ok(gone instanceof SentryUnavailableError && /no answer/.test(gone.message), String(gone));
  assert.equal(exitCodeOf(gone), EXIT.sentryUnavailable);
  assert.equal(new Set([EXIT.sentryAuth, EXIT.sentryNotFound, EXIT.sentryUnavailable, ...Object.values(EXIT).filter((c) => c < 14)]).size, 3 + 14);
});

test('an answer of another shape is unreadable, not half read; a next page on another host is not followed (the token stays with Sentry)', async (t) => {
  const ws = workspace(t);
  const s = await standin(t);
  s.script({ match: '/projects/', status: 200, body: [{ id: '1', title: 'x', count: 'many' }] });
  await assert.rejects(sentryCrashGroups(ws, 'sentry:acme/api', options(s)), (e: unknown) => e instanceof SentryUnavailableError && /shape/.test(e.message));
  s.script({
    match: '/projects/',
    status: 200,
    body: [{ id: '101', title: 'TypeError: x', count: '5' }],
    headers: { Link: '<http://evil.example/api/0/projects/acme/api/issues/?cursor=0:2:0>; rel="next"; results="true"; cursor="0:2:0"' },
  });
  await assert.rejects(
    sentryCrashGroups(ws, 'sentry:acme/api', options(s)),
    (e: unknown) => e instanceof SentryUnavailableError && /another address .*evil\.example.*not followed/.test(e.message),
  );
});

test('Link and Retry-After headers are read as Sentry writes them', () => {
  const link =
    '<https://sentry.io/api/0/projects/acme/api/issues/?cursor=0:0:1>; rel="previous"; results="false"; cursor="0:0:1", ' +
    '<https://sentry.io/api/0/projects/acme/api/issues/?cursor=0:100:0>; rel="next"; results="true"; cursor="0:100:0"';
  assert.equal(nextLink(link), 'https://sentry.io/api/0/projects/acme/api/issues/?cursor=0:100:0');
  assert.equal(nextLink(link.replace('results="true"', 'results="false"')), undefined);
  assert.equal(nextLink(null), undefined);
  assert.equal(retryAfterSeconds('7'), 7);
  assert.equal(retryAfterSeconds(new Date(Date.UTC(2026, 0, 1, 0, 0, 30)).toUTCString(), Date.UTC(2026, 0, 1, 0, 0, 0)), 30);
  assert.equal(retryAfterSeconds(null), 1);
});

test('the Sentry settings: defaults, and a bad URL, limit or project refused as bad input', async (t) => {
  assert.deepEqual(sentrySettings(), { baseUrl: 'https://sentry.io', query: 'is:unresolved', limit: 10 });
  assert.equal(sentrySettings({ baseUrl: 'https://glitchtip.example.com/api/0/' }).baseUrl, 'https://glitchtip.example.com');
  assert.throws(
    () => sentrySettings({ baseUrl: 'https://me:secret@sentry.example.com' }),
    (e: unknown) => e instanceof BadInputError && !e.message.includes('secret'),
  );
  assert.throws(() => sentrySettings({ baseUrl: 'ftp://sentry.example.com' }), BadInputError);
  assert.throws(() => sentrySettings({ limit: '0' }), BadInputError);
  assert.throws(() => sentrySettings({ limit: 101 }), BadInputError);
  const ws = workspace(t);
  await assert.rejects(sentryCrashGroups(ws, 'sentry:acme', { ...sentrySettings(), token: 'x' }), BadInputError);
  await assert.rejects(sentryCrashGroups(ws, 'sentry:acme/../x', { ...sentrySettings(), token: 'x' }), BadInputError);
});
