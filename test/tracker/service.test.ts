import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';
import { startTracker, type TrackerService } from '../../src/tracker/service';
import { TrackerClient } from '../../src/tracker/client';
import { TrackerError } from '../../src/tracker/errors';

/** An answer's JSON, read by the assertions (a shape the service defines, not this test). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions walk arbitrary JSON
type Json = any;
import { TrackerStore } from '../../src/tracker/store';

async function tracker(t: TestContext, o: { retentionMs?: number; now?: () => number } = {}): Promise<TrackerService & { dir: string }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'triage-tracker-svc-'));
  const svc = await startTracker({ dir, port: 0, host: '127.0.0.1', ...o });
  t.after(async () => {
    await svc.close();
    await fs.rm(dir, { recursive: true, force: true });
  });
  return { ...svc, dir };
}

const ISSUE = { title: 'divide by zero', body: 'see crashes/dz/c1.txt', cause: 'dz' };

async function post(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; json: Json; replayed: string | null }> {
  const res = await fetch(`${url}/issues`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return { status: res.status, json: await res.json(), replayed: res.headers.get('idempotent-replayed') };
}

test('POST /issues: 201 with the issue; the same key again: 200, the same issue, Idempotent-Replayed', async (t) => {
  const svc = await tracker(t);
  const a = await post(svc.url, JSON.stringify(ISSUE), { 'Idempotency-Key': 'k-1', 'X-Triage-Run': 'run-7' });
  assert.equal(a.status, 201);
  assert.equal(a.replayed, null);
  assert.deepEqual({ ...a.json.issue, createdAt: 'x' }, { number: 1, ...ISSUE, runId: 'run-7', key: 'k-1', createdAt: 'x' });
  const b = await post(svc.url, JSON.stringify(ISSUE), { 'Idempotency-Key': 'k-1', 'X-Triage-Run': 'run-7' });
  assert.equal(b.status, 200);
  assert.equal(b.replayed, 'true');
  assert.deepEqual(b.json.issue, a.json.issue);
  const c = await post(svc.url, JSON.stringify(ISSUE));
  assert.equal(c.status, 201, 'no key: a new issue');
  assert.equal(c.json.issue.number, 2);
  assert.equal((await svc.store.list()).length, 2);
});

test('a key the tracker still keeps, sent with another body: 422', async (t) => {
  const svc = await tracker(t);
  await post(svc.url, JSON.stringify(ISSUE), { 'Idempotency-Key': 'k-1' });
  const r = await post(svc.url, JSON.stringify({ ...ISSUE, body: 'other' }), { 'Idempotency-Key': 'k-1' });
  assert.equal(r.status, 422);
  assert.match(r.json.error, /already used for issue #1/);
});

test('an expired key counts as no key (injected clock)', async (t) => {
  let now = Date.parse('2025-03-01T10:00:00Z');
  const svc = await tracker(t, { retentionMs: 1000, now: () => now });
  assert.equal((await post(svc.url, JSON.stringify(ISSUE), { 'Idempotency-Key': 'k' })).status, 201);
  now += 1000;
  const late = await post(svc.url, JSON.stringify(ISSUE), { 'Idempotency-Key': 'k' });
  assert.equal(late.status, 201);
  assert.equal(late.json.issue.number, 2);
  const meta = await (await fetch(`${svc.url}/meta`)).json();
  assert.deepEqual(meta, { retentionMs: 1000 });
});

test('bad requests get a 400 that says what to send', async (t) => {
  const svc = await tracker(t);
  const cases: [string, Record<string, string>, RegExp][] = [
    ['{not json', {}, /not valid JSON/],
    ['[1]', {}, /should be a JSON object/],
    [JSON.stringify({ title: 't', body: 'b' }), {}, /field "cause" is missing/],
    [JSON.stringify({ ...ISSUE, title: 5 }), {}, /field "title" should be a string/],
    [JSON.stringify({ ...ISSUE, cause: '  ' }), {}, /field "cause" is empty/],
    [JSON.stringify({ ...ISSUE, key: 'k' }), {}, /unknown field "key".*Idempotency-Key header/],
    [JSON.stringify(ISSUE), { 'Idempotency-Key': 'has space' }, /Idempotency-Key header should be/],
  ];
  for (const [body, headers, re] of cases) {
    const r = await post(svc.url, body, headers);
    assert.equal(r.status, 400, body);
    assert.match(r.json.error, re);
  }
  assert.equal((await svc.store.list()).length, 0);
  const bad = await fetch(`${svc.url}/issues/abc`);
  assert.equal(bad.status, 400);
});

test('GET endpoints: list with filters, one issue, by key, 404s, 405', async (t) => {
  const svc = await tracker(t);
  await post(svc.url, JSON.stringify(ISSUE), { 'Idempotency-Key': 'k/1', 'X-Triage-Run': 'r1' });
  await post(svc.url, JSON.stringify({ ...ISSUE, cause: 'other' }), { 'X-Triage-Run': 'r2' });
  const get = async (p: string) => {
    const res = await fetch(svc.url + p);
    return { status: res.status, json: (await res.json()) as Json };
  };
  assert.deepEqual(
    (await get('/issues')).json.issues.map((i: Json) => i.number),
    [1, 2],
  );
  assert.deepEqual(
    (await get('/issues?cause=dz')).json.issues.map((i: Json) => i.number),
    [1],
  );
  assert.deepEqual(
    (await get('/issues?run=r2')).json.issues.map((i: Json) => i.number),
    [2],
  );
  assert.deepEqual((await get('/issues?cause=dz&run=r2')).json.issues, []);
  assert.equal((await get('/issues/2')).json.issue.cause, 'other');
  assert.deepEqual(await get('/issues/9'), { status: 404, json: { error: 'no issue #9' } });
  const k = await get(`/keys/${encodeURIComponent('k/1')}`);
  assert.equal(k.status, 200);
  assert.equal(k.json.issue.number, 1);
  assert.equal(k.json.live, true);
  assert.deepEqual(await get('/keys/nope'), { status: 404, json: { error: 'unknown key' } });
  assert.equal((await get('/nowhere')).status, 404);
  assert.equal((await fetch(`${svc.url}/issues/1`, { method: 'DELETE' })).status, 405);
});

test('the tracker refuses to listen beyond loopback', async (t) => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'triage-tracker-svc-'));
  t.after(() => fs.rm(dir, { recursive: true, force: true }));
  await assert.rejects(startTracker({ dir, host: '0.0.0.0' }), /loopback only/);
});

test('issues survive a restart of the service on the same store', async (t) => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'triage-tracker-svc-'));
  t.after(() => fs.rm(dir, { recursive: true, force: true }));
  const a = await startTracker({ dir, port: 0 });
  await new TrackerClient(a.url).fileIssue(ISSUE, { key: 'k', runId: 'r' });
  await a.close();
  const b = await startTracker({ dir, port: 0 });
  t.after(() => b.close());
  const c = new TrackerClient(b.url);
  const again = await c.fileIssue(ISSUE, { key: 'k', runId: 'r' });
  assert.equal(again.replayed, true);
  assert.equal((await c.list()).length, 1);
  assert.equal((await TrackerStore.readOnly(dir)).length, 1);
});

test('the client: file, replay, byKey, search, get, meta', async (t) => {
  const svc = await tracker(t, { retentionMs: 5000 });
  const c = new TrackerClient(`${svc.url}/`);
  assert.equal(c.retentionMs, 24 * 3600 * 1000, 'the default until the tracker says');
  const filed = await c.fileIssue(ISSUE, { key: 'k1', runId: 'r1' });
  assert.equal(filed.replayed, false);
  assert.equal(c.retentionMs, 5000, 'learnt from the filing');
  assert.deepEqual(await c.meta(), { retentionMs: 5000 });
  assert.equal((await c.fileIssue(ISSUE, { key: 'k1', runId: 'r1' })).replayed, true);
  assert.equal((await c.byKey('k1'))?.number, 1);
  assert.equal(await c.byKey('k2'), undefined);
  assert.deepEqual(
    (await c.search({ cause: 'dz', runId: 'r1' })).map((i) => i.number),
    [1],
  );
  assert.deepEqual(await c.search({ cause: 'none' }), []);
  assert.equal((await c.get(1))?.key, 'k1');
  assert.equal(await c.get(2), undefined);
  await assert.rejects(c.fileIssue({ ...ISSUE, title: '' }), (e) => e instanceof TrackerError && e.status === 400 && /field "title" is empty/.test(e.message));
});

test('the client against a closed port: a TrackerError naming the URL and how to start a tracker', async (t) => {
  const svc = await tracker(t);
  const url = svc.url;
  await svc.close();
  const c = new TrackerClient(url);
  for (const call of [() => c.search({}), () => c.byKey('k'), () => c.fileIssue(ISSUE), () => c.meta()]) {
    await assert.rejects(
      call(),
      (e) => e instanceof TrackerError && e.url === url && e.status === undefined && /is not answering .*triage tracker serve/.test(e.message),
    );
  }
});

test('the client against a server that errors or is not a tracker: TrackerError with the status; a 404 that is not "unknown key" is not a "no"', async (t) => {
  const server = http.createServer((req, res) => {
    if (req.url?.startsWith('/keys/')) {
      res.writeHead(404, { 'content-type': 'text/html' });
      return res.end('<h1>Not found</h1>');
    }
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'disk full' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => new Promise<void>((r) => server.close(() => r())));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const c = new TrackerClient(url);
  await assert.rejects(c.search({}), (e) => e instanceof TrackerError && e.status === 500 && /answered 500: \/issues: disk full/.test(e.message));
  await assert.rejects(c.byKey('k'), (e) => e instanceof TrackerError && e.status === 404 && /not JSON/.test(e.message));
});

test('the client gives up after its timeout', async (t) => {
  const server = http.createServer(() => {
    /* never answers */
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  const c = new TrackerClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { timeoutMs: 200 });
  await assert.rejects(c.list(), (e) => e instanceof TrackerError && /no answer to GET \/issues within 0.2 s/.test(e.message));
});
